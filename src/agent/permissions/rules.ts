/** Matching permission rules (parsed by the config's grammar, src/config/permission-rule.ts) against calls. */
import type { ToolKind } from '../../tools/define-tool.js';
import type { PermissionRule, RuleTool } from '../../config/permission-rule.js';

export { parseRule, parseRules, ruleNamesTool, RULE_TOOLS, type PermissionRule, type RuleTool } from '../../config/permission-rule.js';

/** The kinds of call a rule naming this tool covers: Read rules hold for every read and search, Edit rules for every edit. */
export const RULE_KINDS: Readonly<Record<RuleTool, readonly ToolKind[]>> = {
  Bash: ['execute'],
  Read: ['read', 'search'],
  Glob: ['read', 'search'],
  Grep: ['read', 'search'],
  Edit: ['edit'],
  Write: ['edit'],
  TodoWrite: ['think'],
};

const compiled = new Map<string, RegExp>();

function wordMatches(pattern: string, word: string): boolean {
  if (!pattern.includes('*')) return pattern === word;
  let re = compiled.get(pattern);
  if (!re) compiled.set(pattern, (re = wordRegex(pattern)));
  return re.test(word);
}

function wordRegex(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

/** Does a Bash rule match a simple command's words (null = a word with an expansion, unknown value)? */
export function bashRuleMatches(rule: PermissionRule, words: ReadonlyArray<string | null>): boolean {
  if (rule.tool !== 'Bash') return false;
  if (!rule.bash) return true;
  const { words: pat, prefix } = rule.bash;
  if (words.length < pat.length || (!prefix && words.length !== pat.length)) return false;
  for (let i = 0; i < pat.length; i++) {
    const w = words[i];
    if (w === null || w === undefined || !wordMatches(pat[i] as string, w)) return false;
  }
  return true;
}

/** Does a file rule apply to a call of `kind` on worktree-relative `rel` ('' = the root)? Read rules cover reads and searches; Edit rules cover edits. */
export function fileRuleMatches(rule: PermissionRule, kind: ToolKind, rel: string, isDir = false): boolean {
  if (kind === 'execute' || kind === 'think' || !(RULE_KINDS[rule.tool] ?? []).includes(kind)) return false;
  if (!rule.paths) return true;
  if (rel === '') return false;
  return rule.paths.ignores(rel) || (isDir && rule.paths.ignores(`${rel}/`));
}
