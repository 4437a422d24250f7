import type { Parser } from 'web-tree-sitter';
import type { PermissionDecision } from './types.js';
import { analyzeBash } from './bash-analysis.js';
import { dangerousEnvName } from './builtin-deny.js';
import { checkCommand, type CommandCheck } from './command-checks.js';
import { checkPathArg, type PathContext } from './path-args.js';
import { ignoredReason } from './git-ignored.js';
import type { FilePolicy } from './file-decision.js';
import { resolveInside } from './path-jail.js';
import { bashRuleMatches, type PermissionRule } from './rules.js';

/** The file policy plus what Bash needs on top: the parser and the implicit `test.command` rules. */
export interface BashPolicy extends FilePolicy {
  parser: Parser;
  /** Implicit prefix rules from `test.command`. */
  testRules: PermissionRule[];
  /** Worktree-relative redirect targets of `test.command` itself: writable even when ignored, by a line that runs the tests. */
  testRedirects?: ReadonlySet<string>;
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

/** A redirect into an ignored path; the test command's own report redirect stays allowed when the line runs the tests. */
function ignoredRedirect(p: BashPolicy, cwds: readonly string[], target: string, runsTests: boolean): boolean {
  if (!p.ignored) return false;
  for (const cwd of cwds) {
    const r = resolveInside(p.root, target, { gitDirs: p.gitDirs, cwd });
    if (r.ok && !(runsTests && p.testRedirects?.has(r.rel)) && p.ignored.isIgnored(r.rel)) return true;
  }
  return false;
}

/** Decide one Bash command line: every simple command in it must pass on its own. */
export function decideBash(p: BashPolicy, command: string): PermissionDecision {
  if (command.trim() === '') return no('builtin-deny:empty', 'the command is empty');
  if (INVISIBLE.test(command)) {
    return no('builtin-deny:invisible-characters', 'the command contains control, zero-width or bidirectional characters; retype it in plain text');
  }
  const a = analyzeBash(p.parser, command);
  if (!a.ok) return no('builtin-deny:syntax', a.reason);
  for (const v of a.variables) {
    if (dangerousEnvName(v.name)) return no(`builtin-deny:env:${v.name}`, `setting ${v.name} changes what later commands load or run; not allowed`);
  }
  const ctx: PathContext = {
    root: p.root,
    gitDirs: p.gitDirs,
    isWritable: p.isWritable,
    secretExempt: p.secretExempt,
    cwds: [p.root],
    deny: p.deny,
    configFile: p.configFile,
    ...(p.ignored ? { ignored: p.ignored } : {}),
  };
  for (const c of a.commands) {
    const [n, t] = c.words;
    if (n?.value === 'cd' && t?.value) {
      const r = resolveInside(p.root, t.value, { gitDirs: p.gitDirs });
      if (r.ok && !ctx.cwds.includes(r.abs)) ctx.cwds.push(r.abs);
    }
  }
  let writesByRedirect = false;
  const runsTests = a.commands.some((c) => p.testRules.some((r) => bashRuleMatches(r, c.words.map((w) => w.value))));
  for (const r of a.redirects) {
    if (r.target === null) continue;
    if (r.target.value === null) return no('builtin-deny:redirect', `the redirect ${r.text} has a variable target; write the file name literally`);
    const reading = r.op === '<';
    const why = checkPathArg(r.target.value, r.target.glob, reading ? 'read' : 'write', ctx, true);
    if (why) return no(why.rule === 'builtin-deny:path' ? 'builtin-deny:redirect' : why.rule, `redirect ${r.text}: ${why.reason}`);
    if (!reading && !/^\/dev\//.test(r.target.value)) {
      writesByRedirect = true;
      const target = r.target.value;
      if (ignoredRedirect(p, ctx.cwds, target, runsTests)) return no('builtin-deny:ignored-path', `redirect ${r.text}: ${ignoredReason(target)}`);
    }
  }
  const checks: CommandCheck[] = a.commands.map((c) => checkCommand(c, ctx));
  for (const c of checks) if (c.deny) return no(c.deny.rule, c.deny.reason);
  for (const c of checks) {
    const rule = p.deny.find((r) => bashRuleMatches(r, c.words));
    if (rule) return no(`config-deny:${rule.text}`, `\`${c.words.join(' ')}\` is refused by permissions.deny "${rule.text}" in ${p.configFile}; do it another way or stop and explain`);
  }
  if (p.mode === 'plan' && (writesByRedirect || checks.some((c) => c.safe === null || c.writes))) {
    return no('mode:plan', 'plan mode is read-only: only inspection commands (ls, cat, rg, git diff, git log, ...) run, with no writes or redirects into files; describe the change instead of making it');
  }
  const labels: string[] = [];
  for (const c of checks) {
    const rule = p.allow.find((r) => bashRuleMatches(r, c.words));
    if (rule) labels.push(`config-allow:${rule.text}`);
    else if (p.testRules.some((r) => bashRuleMatches(r, c.words))) labels.push('test-command');
    else if (c.safe !== null) labels.push(`safe-list:${c.safe}`);
    else {
      const shown = c.words.map((w) => w ?? '$…').join(' ');
      return no('default-deny', `\`${shown}\` is not in the built-in safe list and no rule allows it. If the repository wants it, a maintainer can add "${suggestRule(c.words)}" to permissions.allow in ${p.configFile}; until then use the Read/Edit/Grep/Glob tools or an allowed command`);
    }
  }
  const unique = [...new Set(labels)];
  return { behavior: 'allow', rule: unique.length ? unique.join(' + ') : 'safe-list:no-command', reason: '' };
}
