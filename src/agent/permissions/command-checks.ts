import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { SimpleCommand } from './bash-analysis.js';
import { DENIED_COMMANDS, dangerousEnvName } from './builtin-deny.js';
import { checkFind, checkFollowLinks, checkGit, checkInterpreter, checkLocalPackage, checkPackageManager, checkRg, checkSed, interpreterOf } from './arg-checks.js';
import { checkPathArg, configDenied, type PathContext, type PathRefusal } from './path-args.js';
import { resolveInside } from './path-jail.js';
import { ignoredReason } from './git-ignored.js';
import { checkSearchScope } from './search-scope.js';
import { writeTargets } from './write-targets.js';
import { relOf } from './read-deny.js';
import { isSecretName } from '../../workspace/protected-paths.js';
import { safeListLabel } from './safe-list.js';
import type { Word } from './words.js';

export interface CommandCheck {
  /** A built-in refusal (deny list, argument check, path escape), or null. */
  deny: { rule: string; reason: string } | null;
  /** Words of the effective command after wrappers (`timeout 60 npm test` → npm test); null = expansion. */
  words: (string | null)[];
  /** Safe-list label when the whole command is read-only inspection. */
  safe: string | null;
  /** The command writes files (cp, sed -i, ...). */
  writes: boolean;
}

const READ_PATHS = new Set(['ls', 'cat', 'head', 'tail', 'wc', 'file', 'stat', 'sort', 'uniq', 'cut', 'diff', 'grep', 'egrep', 'fgrep', 'rg', 'find', 'sed', 'nl', 'tac', 'cmp', 'comm', 'du', 'md5sum', 'sha1sum', 'sha256sum', 'realpath', 'readlink', 'less', 'more', 'od', 'xxd', 'hexdump', 'strings', 'column', 'tree', 'awk', 'jq', 'cd']);
const WRITE_PATHS = new Set(['cp', 'mv', 'rm', 'touch', 'mkdir', 'rmdir', 'ln', 'tee', 'chmod', 'chown', 'truncate', 'install', 'unlink', 'patch']);
const NO_PATHS = new Set(['echo', 'printf', 'test', '[', 'true', 'false', 'which', 'type', 'basename', 'dirname', 'pwd', 'env', 'printenv']);
const PATTERN_FIRST = new Set(['grep', 'egrep', 'fgrep', 'rg', 'sed', 'awk', 'jq']);
const ARG_CHECKED = new Set(['git', 'find', 'rg', 'sed', 'npx', 'bunx', 'pnpx', 'npm', 'yarn', 'pnpm', 'bun', 'xargs', 'awk', 'env']);
const ECHO_LIKE = new Set(['echo', 'test', '[']);
const NAME_OK = /^[A-Za-z0-9_./+@%:[-]+$/;

const deny = (rule: string, reason: string, words: (string | null)[] = []): CommandCheck => ({ deny: { rule, reason }, words, safe: null, writes: false });

/** Skip wrapper programs (`timeout 60`, `nice -n 5`, `env A=1`, `command`, `xargs -0`) so the real command is checked. */
function unwrap(words: Word[]): { inner: Word[]; xargs: boolean; error?: string } {
  let w = words;
  let xargs = false;
  for (let guard = 0; guard < 8; guard++) {
    const name = w[0]?.value;
    if (name === undefined || name === null) break;
    const b = basename(name);
    let i = 1;
    const at = (k: number): string | null | undefined => w[k]?.value;
    if (b === 'command' && at(1) !== '-v' && at(1) !== '-V') { if (at(1) === '-p') i = 2; }
    else if (b === 'nohup' || b === 'time') { if (at(1) === '-p') i = 2; }
    else if (b === 'nice') { while ((at(i) ?? '').startsWith('-')) i += at(i) === '-n' ? 2 : 1; }
    else if (b === 'timeout') {
      while ((at(i) ?? '').startsWith('-')) i += at(i) === '-s' || at(i) === '-k' ? 2 : 1;
      i++;
    } else if (b === 'stdbuf') { while ((at(i) ?? '').startsWith('-')) i += /^-[ioe]$/.test(at(i) ?? '') ? 2 : 1; }
    else if (b === 'env' && w.length > 1) {
      while (i < w.length) {
        const v = at(i);
        if (v === null || v === undefined) return { inner: w, xargs, error: 'env arguments must be literal' };
        if (v.startsWith('-')) return { inner: w, xargs, error: `env ${v} is not allowed; use NAME=value prefixes only` };
        const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(v);
        if (!m) break;
        if (dangerousEnvName(m[1] as string)) return { inner: w, xargs, error: `setting ${m[1]} changes what programs load or run; not allowed` };
        i++;
      }
    } else if (b === 'xargs') {
      xargs = true;
      while ((at(i) ?? '').startsWith('-')) i += /^-[IiLlnPdEsa]$/.test(at(i) ?? '') ? 2 : 1;
    } else break;
    if (i >= w.length) break;
    w = w.slice(i);
  }
  return { inner: w, xargs };
}

/** Built-in checks for one simple command: deny list, argument checks, path jail. */
export function checkCommand(cmd: SimpleCommand, ctx: PathContext): CommandCheck {
  for (const a of cmd.assignments) {
    if (dangerousEnvName(a.name)) return deny(`builtin-deny:env:${a.name}`, `the prefix ${a.name}=... changes what programs load or run; not allowed (drop it)`);
  }
  const first = cmd.words[0];
  if (!first || first.value === null) return deny('builtin-deny:dynamic-command', 'a variable or expansion in command position is not allowed; write the command name literally');
  const { inner, xargs, error } = unwrap(cmd.words);
  const words = inner.map((w) => w.value);
  if (error) return deny('builtin-deny:env', error, words);
  const name = words[0];
  if (name === null || name === undefined) return deny('builtin-deny:dynamic-command', 'a variable or expansion in command position is not allowed; write the command name literally', words);
  if (!NAME_OK.test(name)) {
    return deny('builtin-deny:command-name', `command name ${JSON.stringify(name)} has characters outside plain ASCII letters, digits and ./_-+ (look-alike letters are refused); retype it`, words);
  }
  const base = basename(name);
  const denied = DENIED_COMMANDS[base];
  if (denied) return deny(`builtin-deny:${base}`, `${base}: ${denied}`, words);
  const args = words.slice(1);
  const kind = interpreterOf(base);
  if ((ARG_CHECKED.has(base) || kind !== null) && args.some((a) => a === null)) {
    return deny(`builtin-deny:${base}-args`, `${base} with a variable or expansion in its arguments is not allowed; write the arguments literally`, words);
  }
  const sargs = args as string[];
  let why: string | null = checkFollowLinks(base, args.filter((a): a is string => a !== null));
  if (why) return deny(`builtin-deny:${base}-follow-links`, why, words);
  if (base === 'git') why = checkGit(sargs, ctx.root);
  else if (base === 'find') why = checkFind(sargs, ctx.root);
  else if (base === 'rg') why = checkRg(sargs, ctx.root);
  else if (base === 'sed') why = checkSed(sargs, ctx.root);
  else if (base === 'awk' || base === 'gawk' || base === 'mawk') why = sargs.some((a) => /system|\||getline|>/.test(a)) ? 'awk with system(), pipes, getline or output redirection is not allowed' : null;
  else if (kind !== null) why = checkInterpreter(kind, sargs);
  else if (base === 'npx' || base === 'bunx' || base === 'pnpx') why = checkLocalPackage(base, sargs, ctx.root);
  else if (base === 'npm' || base === 'yarn' || base === 'pnpm' || base === 'bun') why = checkPackageManager(base, sargs, ctx.root);
  if (why) return deny(`builtin-deny:${base}-args`, why, words);
  if (xargs && (READ_PATHS.has(base) || WRITE_PATHS.has(base))) {
    return deny('builtin-deny:xargs', `xargs ${base} would take file names the policy cannot see; name the files directly`, words);
  }
  const sedInPlace = base === 'sed' && sargs.some((a) => a === '--in-place' || a.startsWith('--in-place=') || /^-[a-zA-Z]*i/.test(a));
  const writes = WRITE_PATHS.has(base) || sedInPlace || (base === 'sort' && sargs.some((a) => a === '-o' || a.startsWith('--output')));
  const refusal =
    checkArgs(base, inner.slice(1), ctx, sedInPlace) ??
    checkSearchScope(base, sargs.filter((a): a is string => a !== null), ctx) ??
    (base === 'git' ? checkGitPaths(sargs, ctx) : null) ??
    checkIgnoredTargets(base, sargs, sedInPlace, ctx);
  if (refusal) return deny(refusal.rule, refusal.reason, words);
  const literal = ECHO_LIKE.has(base) ? words.map((w) => w ?? '$') : words;
  const safe = !xargs && literal.every((w) => w !== null) ? safeListLabel(literal as string[]) : null;
  return { deny: null, words, safe, writes };
}

/** Content writes (cp/mv destination, tee, touch, sed -i, ...) into paths git ignores would miss the commit. */
function checkIgnoredTargets(base: string, args: readonly (string | null)[], sedInPlace: boolean, ctx: PathContext): PathRefusal | null {
  if (!ctx.ignored || args.some((a) => a === null)) return null;
  for (const t of writeTargets(base, args as string[], sedInPlace)) {
    for (const cwd of ctx.cwds) {
      const r = resolveInside(ctx.root, t.path, { gitDirs: ctx.gitDirs, cwd });
      if (!r.ok) continue;
      const into = t.intoName !== undefined && (t.folder === true || isDir(r.abs)) ? `${r.rel === '' ? '' : `${r.rel}/`}${t.intoName}` : null;
      if (ctx.ignored.isIgnored(r.rel) || (into !== null && ctx.ignored.isIgnored(into))) {
        return { rule: 'builtin-deny:ignored-path', reason: `${base}: ${ignoredReason(into ?? t.path)}` };
      }
    }
  }
  return null;
}

/** `git show HEAD:.env`, `git diff -- secrets/x`: the paths a git command names still answer to Read deny rules. */
function checkGitPaths(args: readonly string[], ctx: PathContext): PathRefusal | null {
  if (!ctx.deny || ctx.deny.length === 0) return null;
  let afterDashes = false;
  for (const a of args) {
    if (a === '--') { afterDashes = true; continue; }
    const m = /^(?::[0-3]:|[^:-][^:]*:|:)(.+)$/.exec(a);
    const p = afterDashes ? a : m?.[1];
    if (p === undefined) continue;
    const rel = relOf(ctx.root, p);
    if (rel === null || rel === '') continue;
    if (isSecretName(rel)) return { rule: 'builtin-deny:path', reason: `${a} names a secret file (keys, tokens, .env); no tool reads it` };
    const refusal = configDenied(rel, false, 'read', ctx, a);
    if (refusal) return refusal;
  }
  return null;
}

function isDir(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

function checkArgs(base: string, args: Word[], ctx: PathContext, sedInPlace: boolean): PathRefusal | null {
  if (NO_PATHS.has(base)) return null;
  const allPaths = READ_PATHS.has(base) || WRITE_PATHS.has(base);
  const access = WRITE_PATHS.has(base) || sedInPlace ? 'write' : 'read';
  const jailed = (reason: string): PathRefusal => ({ rule: 'builtin-deny:path', reason });
  if (base === 'cd' && (args.length === 0 || args[0]?.value === '-')) return jailed('cd to the home or previous directory leaves the worktree; cd to a worktree path');
  let patternPending = PATTERN_FIRST.has(base) && !args.some((a) => a.value !== null && /^(-e|-f|--regexp|--file|--expression)(=|$)/.test(a.value));
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const v = w.value;
    if (v === null) {
      if (allPaths) return jailed(`${base} arguments must be literal paths (no variables or expansions) so they can be checked against the worktree`);
      continue;
    }
    if (options && v === '--') { options = false; continue; }
    if (options && v.startsWith('-') && v !== '-') {
      if (/^(-e|--regexp|--expression)$/.test(v)) i++;
      const eq = v.indexOf('=');
      if (eq > 0) {
        const r = checkPathArg(v.slice(eq + 1), false, access, ctx, false);
        if (r) return r;
      }
      continue;
    }
    if (patternPending) { patternPending = false; continue; }
    const r = checkPathArg(v, w.glob, access, ctx, allPaths);
    if (r) return r;
  }
  return null;
}
