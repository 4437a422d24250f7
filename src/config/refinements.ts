/**
 * Deep checks of `.github/proofpr.yml` values, run by the zod schema itself so every host refuses a bad
 * config at load (exit 2, key path named) before any worktree, branch or model request: permission rule
 * syntax and tool names, hook matcher regexes and the tools they name, cron strings, repository paths.
 */
import { z } from 'zod';
import { CronExpressionParser } from 'cron-parser';
import { parseRule, RULE_TOOLS } from './permission-rule.js';
import { matchesTool } from './hook-matcher.js';
import { ConfigError } from './config-error.js';

/** Tool names a hook matcher may name (the rule tools plus tools that take no rule). */
const HOOK_TOOLS: readonly string[] = [...RULE_TOOLS, 'Skill'];

/** A permission rule: `Tool` or `Tool(specifier)`, parsed exactly as the policy will parse it. */
export const permissionRule = z.string().superRefine((text, ctx) => {
  try {
    parseRule(text, '@');
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(text)}: ${(e.issues[0] ?? e.message).replace(/^@: /, '')}` });
  }
});

/** A hook matcher: a valid regular expression; a plain list of names (`Edit|Write`) names known tools only. */
export const hookMatcher = z.string().superRefine((m, ctx) => {
  try {
    matchesTool(m, 'Bash');
  } catch (e) {
    ctx.addIssue({
      code: 'custom',
      message: `${JSON.stringify(m)} is not a valid regular expression (${(e as Error).message.replace(/^Invalid regular expression: /, '')})`,
    });
    return;
  }
  const t = m.trim();
  if (!/^[A-Za-z_]+(\|[A-Za-z_]+)*$/.test(t)) return;
  const unknown = t.split('|').filter((n) => !HOOK_TOOLS.includes(n));
  if (unknown.length > 0)
    ctx.addIssue({ code: 'custom', message: `unknown tool ${unknown.map((n) => `"${n}"`).join(', ')} (tools: ${HOOK_TOOLS.join(', ')})` });
});

/** A five-field cron expression (UTC), as `serve`'s scheduler reads it. */
export const cronSchedule = z.string().superRefine((s, ctx) => {
  const fields = s.trim().split(/\s+/).length;
  let problem: string | undefined;
  if (fields !== 5 && !s.trim().startsWith('@'))
    problem = `has ${fields} field${fields === 1 ? '' : 's'}, expected 5 (minute hour day-of-month month day-of-week)`;
  else {
    try {
      CronExpressionParser.parse(s, { tz: 'UTC' });
    } catch (e) {
      problem = (e as Error).message;
    }
  }
  if (problem)
    ctx.addIssue({
      code: 'custom',
      message: `${JSON.stringify(s)} is not a valid cron expression: ${problem} (e.g. "0 3 * * 1" = Mondays 03:00 UTC)`,
    });
});

/** A path relative to the repository root that stays inside it. */
export const repoPath = z.string().superRefine((p, ctx) => {
  if (p.trim() === '') ctx.addIssue({ code: 'custom', message: 'empty path' });
  else if (p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('~'))
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(p)} must be relative to the repository root` });
  else if (p.split(/[\\/]/).includes('..')) ctx.addIssue({ code: 'custom', message: `${JSON.stringify(p)} leaves the repository ("..")` });
});
