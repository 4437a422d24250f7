import { lstatSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Parser } from 'web-tree-sitter';
import type { PermissionDecision } from './types.js';
import { analyzeBash } from './bash-analysis.js';
import { dangerousEnvName } from './builtin-deny.js';
import { followCwd } from './cwd-flow.js';
import { SAFE_ENV_NAMES } from './wrappers.js';
import type { WorktreeIndex } from './worktree-index.js';
import { checkCommand, type CommandCheck } from './command-checks.js';
import { checkPathArg, type PathContext } from './path-args.js';
import { dependencyReason, ignoredDependencyDir } from './git-ignored.js';
import { decideFileTool, type FilePolicy } from './file-decision.js';
import { resolveInside } from './path-jail.js';
import { gitWorktreeChange } from './git-worktree.js';
import { bashRuleMatches, type PermissionRule } from './rules.js';

/** The file policy plus what Bash needs on top: the parser and the implicit `test.command` rules. */
export interface BashPolicy extends FilePolicy {
  parser: Parser;
  /** Implicit prefix rules from `test.command`. */
  testRules: PermissionRule[];
  /** Worktree-relative redirect targets of `test.command` itself: writable even inside an ignored dependency folder, by a line that runs the tests. */
  testRedirects?: ReadonlySet<string>;
  /** `NAME=value` prefixes of `test.command` (`PYTHONPATH=src python -m unittest`): allowed exactly as configured. */
  testEnv?: ReadonlySet<string>;
  /** Secret files and escaping symlinks, for recursive searches. */
  index?: WorktreeIndex;
}

const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f\u0080-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/;
const MULTI = new Set(['npm', 'yarn', 'pnpm', 'bun', 'git', 'cargo', 'go', 'deno', 'dotnet', 'poetry', 'uv', 'npx']);

const no = (rule: string, reason: string): PermissionDecision => ({ behavior: 'deny', rule, reason });

/** The allow rule that would admit a command, for the "ask has nobody to ask" message. */
export function suggestRule(words: readonly (string | null)[]): string {
  const w = words.filter((x): x is string => x !== null && !x.startsWith('-'));
  let n = 1;
  if (MULTI.has(w[0] ?? '') && w[1] !== undefined) n = w[0] !== 'npx' && w[1] === 'run' && w[2] !== undefined ? 3 : 2;
  return `Bash(${w.slice(0, n).join(' ')}:*)`;
}

/** The ignored dependency folder a redirect writes into; the test command's own redirect stays allowed when the line runs the tests. */
function dependencyRedirect(p: BashPolicy, cwds: Iterable<string>, target: string, runsTests: boolean): string | undefined {
  if (!p.ignored) return undefined;
  for (const cwd of cwds) {
    const r = resolveInside(p.root, target, { gitDirs: p.gitDirs, cwd });
    const dir = r.ok && !(runsTests && p.testRedirects?.has(r.rel)) ? ignoredDependencyDir(p.ignored, r.rel) : undefined;
    if (dir) return dir;
  }
  return undefined;
}

/** A variable set in the line (`X=1;`, `export X`, `for X in`): exported ones only from the safe set, plain ones never a name programs read. */
function variableRefusal(v: { name: string; exported?: boolean }): string | null {
  if (v.exported && !SAFE_ENV_NAMES.has(v.name))
    return `exporting ${v.name} is not allowed (only ${[...SAFE_ENV_NAMES].slice(0, 6).join(', ')}, … may reach programs' environment)`;
  if (dangerousEnvName(v.name) || (/^[A-Z0-9_]+$/.test(v.name) && !SAFE_ENV_NAMES.has(v.name))) {
    return `setting ${v.name} may change what later commands load or run (an upper-case name can already be in the environment); use a lower-case shell variable`;
  }
  return null;
}

/** Does an allow rule name the option the safe table does not know (`Bash(sed -i:*)` names -i)? */
function ruleNames(rule: PermissionRule, option: string): boolean {
  const bare = option.split(' ')[0] as string;
  const name = bare.split('=')[0] as string;
  return (rule.bash?.words ?? []).some((w) => w === bare || w === name || w.split('=')[0] === name);
}

/** The path checks' context for a command that may run in any of `cwds`. */
function pathContext(p: BashPolicy, cwds: Iterable<string>): PathContext {
  return {
    root: p.root,
    gitDirs: p.gitDirs,
    isWritable: p.isWritable,
    secretExempt: p.secretExempt,
    cwds: [...cwds],
    deny: p.deny,
    configFile: p.configFile,
    ...(p.ignored ? { ignored: p.ignored } : {}),
    ...(p.index ? { index: p.index } : {}),
    ...(p.testEnv?.size ? { testEnv: p.testEnv } : {}),
  };
}

/** Decide one Bash command line: every simple command in it must pass on its own. */
export function decideBash(p: BashPolicy, command: string): PermissionDecision {
  if (command.trim() === '') return no('builtin-deny:empty', 'the command is empty');
  if (INVISIBLE.test(command)) {
    return no(
      'builtin-deny:invisible-characters',
      'the command contains control, zero-width or bidirectional characters; retype it in plain text',
    );
  }
  const a = analyzeBash(p.parser, command);
  if (!a.ok) return no('builtin-deny:syntax', a.reason);
  for (const v of a.variables) {
    const why = variableRefusal(v);
    if (why) return no(`builtin-deny:env:${v.name}`, why);
  }
  const cwd = followCwd(a.flow, a.commands, a.redirects.length, p.root, p.gitDirs);
  const ctxFor = (cwds: Iterable<string>): PathContext => pathContext(p, cwds);
  let writesByRedirect = false;
  const runsTests = a.commands.some((c) =>
    p.testRules.some((r) =>
      bashRuleMatches(
        r,
        c.words.map((w) => w.value),
      ),
    ),
  );
  for (const [i, r] of a.redirects.entries()) {
    if (r.target === null) continue;
    if (r.target.value === null)
      return no('builtin-deny:redirect', `the redirect ${r.text} has a variable target; write the file name literally`);
    const reading = r.op === '<';
    const ctx = ctxFor(cwd.redirects[i] ?? [p.root]);
    const why = checkPathArg(r.target.value, r.target.glob, reading ? 'read' : 'write', ctx, true);
    if (why) return no(why.rule === 'builtin-deny:path' ? 'builtin-deny:redirect' : why.rule, `redirect ${r.text}: ${why.reason}`);
    if (!reading && !/^\/dev\//.test(r.target.value)) {
      writesByRedirect = true;
      const target = r.target.value;
      const dependency = dependencyRedirect(p, ctx.cwds, target, runsTests);
      if (dependency) return no('builtin-deny:dependency-path', `redirect ${r.text}: ${dependencyReason(target, dependency)}`);
    }
  }
  const checks: CommandCheck[] = a.commands.map((c, i) => checkCommand(c, ctxFor(cwd.commands[i] ?? [p.root])));
  for (const c of checks) if (c.deny) return no(c.deny.rule, c.deny.reason);
  for (const c of checks) {
    const rule = p.deny.find((r) => bashRuleMatches(r, c.words));
    if (rule)
      return no(
        `config-deny:${rule.text}`,
        `\`${c.words.join(' ')}\` is refused by permissions.deny "${rule.text}" in ${p.configFile}; do it another way or stop and explain`,
      );
  }
  if (p.mode === 'plan' && (writesByRedirect || checks.some((c) => c.safe === null || c.writes))) {
    return no(
      'mode:plan',
      'plan mode is read-only: only inspection commands (ls, cat, rg, git diff, git log, ...) run, with no writes, no test runs and no redirects into files; describe the change instead of making it',
    );
  }
  const labels: string[] = [];
  for (const [i, c] of checks.entries()) {
    const label = allowLabel(p, c, [...(cwd.commands[i] ?? [p.root])]);
    if (typeof label !== 'string') return label;
    labels.push(label);
  }
  const unique = [...new Set(labels)];
  return { behavior: 'allow', rule: unique.length ? unique.join(' + ') : 'safe-list:no-command', reason: '' };
}

/** The label that allows one simple command (safe list, a rule, the test command, a built-in write), or the refusal that says why. */
function allowLabel(p: BashPolicy, c: CommandCheck, cwds: readonly string[]): string | PermissionDecision {
  const shown = c.words.map((w) => w ?? '$…').join(' ');
  const rule = p.allow.find((r) => bashRuleMatches(r, c.words));
  if (c.safe !== null && !rule) return `safe-list:${c.safe}`;
  if (rule && c.optionBad !== undefined && !ruleNames(rule, c.optionBad)) {
    return no(
      'builtin-deny:option',
      `\`${shown}\`: ${c.optionBad} is not among the options this command may use here (it can run programs, read other files or write), and "${rule.text}" does not name it; a maintainer can allow it with a rule that names the option, e.g. "Bash(${c.words[0] ?? ''} ${c.optionBad.split(/[ =]/)[0] ?? ''}:*)"`,
    );
  }
  if (rule) return `config-allow:${rule.text}`;
  if (p.testRules.some((r) => bashRuleMatches(r, c.words))) return 'test-command';
  if (fileDeletion(p, c.words, cwds)) return 'builtin-allow:rm';
  // git restore / checkout -- <path> / stash: worktree writes the Write tool could make (git-worktree.ts).
  const g = gitWorktreeChange(p, c.words, cwds);
  if (g) return 'label' in g ? g.label : no('builtin-deny:git-worktree', g.refused);
  const why = c.optionBad !== undefined ? ` (${c.optionBad} is not among the options it may use without a rule)` : '';
  return no(
    'default-deny',
    `\`${shown}\` is not in the built-in safe list${why} and no rule allows it. If the repository wants it, a maintainer can add "${suggestRule(c.words)}" to permissions.allow in ${p.configFile}; until then use the Read/Edit/Grep/Glob tools or an allowed command`,
  );
}

/** `rm` options that delete only the files named: no recursion, no directories, no prompts. */
const RM_OPTIONS = new Set(['-f', '--force', '-v', '--verbose', '--']);

/**
 * `rm [-f] [--] FILE…` run from the worktree root, each FILE named literally (no glob, no expansion):
 * deleting a file is a write to it, allowed where the Write tool may write that file (inside the
 * worktree, not a protected, secret or dependency path, no deny rule). Anything else (-r, a folder, a
 * glob, a symlink, a `cd` before it) still needs a rule.
 */
function fileDeletion(p: BashPolicy, words: readonly (string | null)[], cwds: readonly string[]): boolean {
  if (words[0] !== 'rm' || cwds.length !== 1 || cwds[0] !== p.root) return false;
  const files: string[] = [];
  let options = true;
  for (const w of words.slice(1)) {
    if (w === null || /[*?[\]{}~$`]/.test(w)) return false;
    if (options && w === '--') options = false;
    else if (options && w.startsWith('-')) {
      if (!RM_OPTIONS.has(w)) return false;
    } else files.push(w);
  }
  if (files.length === 0) return false;
  // rm removes a symlink itself, while the Write check follows it: a link is left to a rule.
  const isLink = (f: string): boolean =>
    lstatSync(isAbsolute(f) ? f : join(p.root, f), { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
  if (files.some(isLink)) return false;
  return files.every(
    (f) =>
      decideFileTool(p, { tool: 'Write', kind: 'edit', access: { paths: [{ path: f, type: 'file' }], patterns: [] } }).behavior === 'allow',
  );
}
