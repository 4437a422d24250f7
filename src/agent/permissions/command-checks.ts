import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseFind } from './find-grammar.js';
import type { SimpleCommand } from './bash-analysis.js';
import { DENIED_COMMANDS } from './builtin-deny.js';
import { codeLoadingFlag, RUNNERS } from './code-loading.js';
import { SAFE_ENV_NAMES, unwrap, XARGS_SAFE_INNER } from './wrappers.js';
import {
  checkFind,
  checkFollowLinks,
  checkGit,
  checkInterpreter,
  checkLocalPackage,
  checkPackageManager,
  checkRg,
  checkSed,
  interpreterOf,
} from './arg-checks.js';
import { checkPathArg, configDenied, type PathContext, type PathRefusal } from './path-args.js';
import { checkSearchScope, checkSecretScope, linksEscapeUnder, searchOperands } from './search-scope.js';
import { checkDependencyTargets, checkWriteTargets } from './write-checks.js';
import { relOf } from './read-deny.js';
import { isSecretFile } from './path-jail.js';
import { FILE_READERS, optionRefusal, safeListLabel } from './safe-list.js';
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
  /** The command has an option table and this word is not in it: only a rule that names it admits the command. */
  optionBad?: string;
}

/** Commands whose operands the path jail checks as reads: the file readers, and pagers and dumpers no rule-free line may run. */
const READ_PATHS = new Set([...FILE_READERS, 'less', 'more', 'od', 'xxd', 'hexdump', 'strings', 'tree']);
const WRITE_PATHS = new Set([
  'cp',
  'mv',
  'rm',
  'touch',
  'mkdir',
  'rmdir',
  'ln',
  'tee',
  'chmod',
  'chown',
  'truncate',
  'install',
  'unlink',
  'patch',
]);
const NO_PATHS = new Set([
  'echo',
  'printf',
  'test',
  '[',
  'true',
  'false',
  'which',
  'type',
  'basename',
  'dirname',
  'pwd',
  'env',
  'printenv',
  'uname',
  'date',
]);
const PATTERN_FIRST = new Set(['grep', 'egrep', 'fgrep', 'rg', 'sed', 'awk', 'jq']);
const ARG_CHECKED = new Set(['git', 'find', 'rg', 'sed', 'npx', 'bunx', 'pnpx', 'npm', 'yarn', 'pnpm', 'bun', 'xargs', 'awk', 'env']);
const ECHO_LIKE = new Set(['echo', 'test', '[']);
/** Commands that show names and metadata, not content: their globs may match .git and secrets by name. */
const NAMES_ONLY = new Set(['ls', 'stat', 'du']);
const NAME_OK = /^[A-Za-z0-9_./+@%:[-]+$/;

const deny = (rule: string, reason: string, words: (string | null)[] = []): CommandCheck => ({
  deny: { rule, reason },
  words,
  safe: null,
  writes: false,
});

/** Built-in checks for one simple command: deny list, argument checks, path jail. */
/**
 * A search or listing told to follow symlinks: refused, unless it is a search whose operands have no
 * link that leads out of the worktree (then following them shows nothing new).
 */
function followLinksRefusal(base: string, args: readonly (string | null)[], sargs: string[], ctx: PathContext): string | null {
  const why = checkFollowLinks(
    base,
    args.filter((a): a is string => a !== null),
  );
  if (!why || !FOLLOWING_SEARCH.has(base)) return why;
  const f = base === 'find' ? parseFind(sargs) : null;
  const operands = f !== null ? (typeof f === 'string' ? null : f.paths) : searchOperands(base, sargs);
  const escaping = operands === null ? 'unknown' : linksEscapeUnder(operands, ctx);
  return escaping === null ? null : `${why} (${escaping} leads out of the worktree)`;
}

/** The program's own argument check (git, find, rg, sed, awk, interpreters, npx, package managers), then code loading by any program. */
function programArgsRefusal(
  base: string,
  kind: ReturnType<typeof interpreterOf>,
  args: readonly (string | null)[],
  sargs: string[],
  ctx: PathContext,
): string | null {
  let why: string | null = null;
  if (base === 'git') why = checkGit(sargs, ctx.root);
  else if (base === 'find') why = checkFind(sargs, ctx.root);
  else if (base === 'rg') why = checkRg(sargs, ctx.root);
  else if (base === 'sed') why = checkSed(sargs, ctx.root);
  else if (base === 'awk' || base === 'gawk' || base === 'mawk')
    why = sargs.some((a) => /system|\||getline|>/.test(a))
      ? 'awk with system(), pipes, getline or output redirection is not allowed'
      : null;
  else if (kind !== null) why = checkInterpreter(kind, sargs);
  else if (base === 'npx' || base === 'bunx' || base === 'pnpx') why = checkLocalPackage(base, sargs, ctx.root);
  else if (base === 'npm' || base === 'yarn' || base === 'pnpm' || base === 'bun') why = checkPackageManager(base, sargs, ctx.root);
  return why ?? codeLoading(base, args);
}

/** An `X=... cmd` prefix outside the safe names (or the test command's own env) is refused. */
function envPrefixRefusal(cmd: SimpleCommand, ctx: PathContext): CommandCheck | undefined {
  for (const a of cmd.assignments) {
    if (!SAFE_ENV_NAMES.has(a.name) && !ctx.testEnv?.has(`${a.name}=${a.value?.value ?? ''}`)) {
      return deny(
        `builtin-deny:env:${a.name}`,
        `the prefix ${a.name}=... is not one of the environment names a command may get here (${[...SAFE_ENV_NAMES].slice(0, 6).join(', ')}, …): it may point the program at other code or config; drop it`,
      );
    }
  }
  return undefined;
}

/** What a wrapper (env, xargs, nice, …) itself may not do: fail to unwrap, set an unsafe variable, or read a file the policy refuses. */
function wrapperRefusal(un: ReturnType<typeof unwrap>, words: (string | null)[], ctx: PathContext): CommandCheck | null {
  if (un.error) return deny('builtin-deny:wrapper', un.error, words);
  for (const n of un.envNames) {
    if (!SAFE_ENV_NAMES.has(n))
      return deny(
        `builtin-deny:env:${n}`,
        `env setting or unsetting ${n} is not allowed (it may point the program at other code or config); only ${[...SAFE_ENV_NAMES].slice(0, 6).join(', ')}, … may be set`,
        words,
      );
  }
  for (const f of un.readFiles) {
    const r = checkPathArg(f, false, 'read', ctx, true);
    if (r) return deny(r.rule, `xargs ${f}: ${r.reason}`, words);
  }
  return null;
}

/** Whether a command writes files: a writing command, `sed -i`, or `sort -o`. */
function writesOf(base: string, sargs: readonly string[]): { sedInPlace: boolean; writes: boolean } {
  const sedInPlace = base === 'sed' && sargs.some((a) => a === '--in-place' || a.startsWith('--in-place=') || /^-[a-zA-Z]*i/.test(a));
  const sortOut = base === 'sort' && sargs.some((a) => a === '-o' || a.startsWith('--output') || /^-[a-zA-Z]*o/.test(a));
  return { sedInPlace, writes: WRITE_PATHS.has(base) || sedInPlace || sortOut };
}

export function checkCommand(cmd: SimpleCommand, ctx: PathContext): CommandCheck {
  const prefix = envPrefixRefusal(cmd, ctx);
  if (prefix) return prefix;
  const first = cmd.words[0];
  if (!first || first.value === null)
    return deny(
      'builtin-deny:dynamic-command',
      'a variable or expansion in command position is not allowed; write the command name literally',
    );
  const un = unwrap(cmd.words);
  const { inner } = un;
  const words = inner.map((w) => w.value);
  const wrapperBad = wrapperRefusal(un, words, ctx);
  if (wrapperBad) return wrapperBad;
  if (un.lookupOnly) return { deny: null, words, safe: inner.length === 0 ? `${basename(first.value)}` : 'command -v', writes: false };
  const name = words[0];
  if (name === null || name === undefined)
    return deny(
      'builtin-deny:dynamic-command',
      'a variable or expansion in command position is not allowed; write the command name literally',
      words,
    );
  if (!NAME_OK.test(name)) {
    return deny(
      'builtin-deny:command-name',
      `command name ${JSON.stringify(name)} has characters outside plain ASCII letters, digits and ./_-+ (look-alike letters are refused); retype it`,
      words,
    );
  }
  const base = basename(name);
  const denied = DENIED_COMMANDS[base];
  if (denied) return deny(`builtin-deny:${base}`, `${base}: ${denied}`, words);
  const args = words.slice(1);
  const kind = interpreterOf(base);
  if ((ARG_CHECKED.has(base) || kind !== null || RUNNERS.has(base)) && args.some((a) => a === null)) {
    return deny(
      `builtin-deny:${base}-args`,
      `${base} with a variable or expansion in its arguments is not allowed; write the arguments literally`,
      words,
    );
  }
  const sargs = args as string[];
  let why = followLinksRefusal(base, args, sargs, ctx);
  if (why) return deny(`builtin-deny:${base}-follow-links`, why, words);
  const embedded = base === 'git' ? embeddedRepo(ctx) : null;
  if (embedded)
    return deny(
      'builtin-deny:embedded-repo',
      `git in ${embedded} would use that embedded repository (its config can run programs); run git from the worktree root with a pathspec instead (git log -- ${embedded})`,
      words,
    );
  why = programArgsRefusal(base, kind, args, sargs, ctx);
  if (why) return deny(`builtin-deny:${base}-args`, why, words);
  if (un.argvUnknown && !XARGS_SAFE_INNER.has(base) && (READ_PATHS.has(base) || WRITE_PATHS.has(base))) {
    return deny(
      'builtin-deny:xargs',
      `xargs ${base} would take file names the policy cannot see; name the files directly (xargs may only feed ${[...XARGS_SAFE_INNER].join(', ')})`,
      words,
    );
  }
  const { sedInPlace, writes } = writesOf(base, sargs);
  const refusal =
    checkArgs(base, inner.slice(1), ctx, sedInPlace) ??
    checkWriteTargets(base, args, sedInPlace, ctx) ??
    checkSearchScope(
      base,
      sargs.filter((a): a is string => a !== null),
      ctx,
    ) ??
    checkSecretScope(base, sargs, ctx) ??
    (base === 'git' ? checkGitPaths(sargs, ctx) : null) ??
    checkDependencyTargets(base, sargs, sedInPlace, ctx);
  if (refusal) return deny(refusal.rule, refusal.reason, words);
  const literal = ECHO_LIKE.has(base) ? words.map((w) => w ?? '$') : words;
  const known = literal.every((w) => w !== null);
  const optionBad = known ? optionRefusal(literal as string[]) : null;
  const safeInner = !un.argvUnknown || XARGS_SAFE_INNER.has(base);
  const safe = safeInner && known ? safeListLabel(literal as string[]) : null;
  return { deny: null, words, safe: safe && un.argvUnknown ? `xargs ${safe}` : safe, writes, ...(optionBad !== null ? { optionBad } : {}) };
}

const FOLLOWING_SEARCH = new Set(['grep', 'egrep', 'fgrep', 'rg', 'find']);

/** A folder between a command's cwd and the worktree root that holds its own `.git` (an embedded repository). */
function embeddedRepo(ctx: PathContext): string | null {
  for (const cwd of ctx.cwds) {
    let d = cwd;
    while (d !== ctx.root && d.startsWith(`${ctx.root}/`)) {
      if (existsSync(join(d, '.git'))) return d.slice(ctx.root.length + 1);
      d = dirname(d);
    }
  }
  return null;
}

/** Interpreters, test runners and the runner behind a package-manager script: no flag that loads other code. */
function codeLoading(base: string, args: readonly (string | null)[]): string | null {
  if (RUNNERS.has(base) || interpreterOf(base) !== null) return codeLoadingFlag(base, args);
  if (base === 'npx' || base === 'bunx' || base === 'pnpx') {
    const at = args.findIndex((a) => a !== null && !a.startsWith('-'));
    return at === -1 ? null : codeLoadingFlag(basename(args[at] as string), args.slice(at + 1));
  }
  if (base === 'npm' || base === 'yarn' || base === 'pnpm' || base === 'bun') return codeLoadingFlag(base, args, true);
  return null;
}

/** `git show HEAD:.env`, `git diff -- secrets/x`: the paths a git command names still answer to Read deny rules. */
function checkGitPaths(args: readonly string[], ctx: PathContext): PathRefusal | null {
  let afterDashes = false;
  for (const a of args) {
    if (a === '--') {
      afterDashes = true;
      continue;
    }
    const m = /^(?::[0-3]:|[^:-][^:]*:|:)(.+)$/.exec(a);
    const p = afterDashes ? a : m?.[1];
    if (p === undefined) continue;
    const rel = relOf(ctx.root, p);
    if (rel === null || rel === '') continue;
    if (isSecretFile(rel, join(ctx.root, rel)) && !ctx.secretExempt(rel))
      return { rule: 'builtin-deny:path', reason: `${a} names a masked file (its content matches a secret rule); no tool reads it` };
    const refusal = configDenied(rel, false, 'read', ctx, a);
    if (refusal) return refusal;
  }
  return null;
}

function checkArgs(base: string, args: Word[], pctx: PathContext, sedInPlace: boolean): PathRefusal | null {
  if (NO_PATHS.has(base)) return null;
  const ctx = NAMES_ONLY.has(base) ? { ...pctx, namesOnly: true } : pctx;
  const allPaths = READ_PATHS.has(base) || WRITE_PATHS.has(base);
  const access = WRITE_PATHS.has(base) || sedInPlace ? 'write' : 'read';
  const jailed = (reason: string): PathRefusal => ({ rule: 'builtin-deny:path', reason });
  if (base === 'cd' && (args.length === 0 || args[0]?.value === '-'))
    return jailed('cd to the home or previous directory leaves the worktree; cd to a worktree path');
  let patternPending =
    PATTERN_FIRST.has(base) && !args.some((a) => a.value !== null && /^(-e|-f|--regexp|--file|--expression)(=|$)/.test(a.value));
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const v = w.value;
    if (v === null) {
      if (allPaths)
        return jailed(`${base} arguments must be literal paths (no variables or expansions) so they can be checked against the worktree`);
      continue;
    }
    if (options && v === '--') {
      options = false;
      continue;
    }
    if (options && v.startsWith('-') && v !== '-') {
      if (/^(-e|--regexp|--expression)$/.test(v)) i++;
      const eq = v.indexOf('=');
      if (eq > 0) {
        const r = checkPathArg(v.slice(eq + 1), false, access, ctx, false);
        if (r) return r;
      }
      continue;
    }
    if (patternPending) {
      patternPending = false;
      continue;
    }
    const r = checkPathArg(v, w.glob, access, ctx, allPaths);
    if (r) return r;
  }
  return null;
}
