/**
 * The permission rule grammar (`Tool` or `Tool(specifier)`, CONTRACT §8): parsed here, where the config
 * schema validates it at load, and matched by the policy (src/agent/permissions/rules.ts).
 */
import ignore, { type Ignore } from 'ignore';
import { ConfigError } from './config-error.js';

/** Tool names a rule may name (CONTRACT §7). */
export const RULE_TOOLS = ['Bash', 'Read', 'Write', 'Edit', 'Glob', 'Grep', 'TodoWrite'] as const;
/** An MCP server tool, `mcp__<server>__<tool>`, or every tool of a server, `mcp__<server>` (or `mcp__<server>__*`): no specifier. */
export type McpRuleTool = `mcp__${string}`;
export type RuleTool = (typeof RULE_TOOLS)[number] | McpRuleTool;
const MCP_RULE = /^mcp__[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*__[A-Za-z0-9_.-]+$/;
const MCP_SERVER_RULE = /^mcp__([A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*)(?:__\*)?$/;

export interface PermissionRule {
  /** The rule as written, e.g. `Bash(npm test:*)`. */
  text: string;
  tool: RuleTool;
  /** Bash: words of the command prefix (a word may hold `*` wildcards); absent = every command. */
  bash?: { words: string[]; prefix: boolean };
  /** File tools: gitignore-style matcher over worktree-relative paths; absent = every path. */
  paths?: Ignore;
  /** `mcp__<server>`: the rule covers every tool of this MCP server. */
  mcpServer?: string;
}

/** Whether a rule names this tool: by its name, or as one of the tools of the MCP server it names. */
export function ruleNamesTool(rule: PermissionRule, tool: string): boolean {
  return rule.tool === tool || (rule.mcpServer !== undefined && tool.startsWith(`mcp__${rule.mcpServer}__`));
}

function fail(where: string, text: string, msg: string): never {
  throw new ConfigError(`${where} ${JSON.stringify(text)}: ${msg}`, [`${where}: ${msg}`]);
}

/**
 * Parse one `Tool` or `Tool(specifier)` rule. `where` names it in errors, e.g. `permissions.allow[2]`.
 * Bash specifiers: `npm test:*` (prefix, word boundary) or `git diff` (exact). File specifiers:
 * gitignore-style globs relative to the worktree (`./src/**`, `*.env`, `/docs/**`).
 */
export function parseRule(text: string, where: string): PermissionRule {
  const t = text.trim();
  const open = t.indexOf('(');
  const name = open === -1 ? t : t.slice(0, open);
  if (name === '') fail(where, text, 'missing tool name (write e.g. "Bash(npm test:*)" or "Read(./src/**)")');
  if (name.startsWith('mcp__')) {
    const server = MCP_SERVER_RULE.exec(name)?.[1];
    if (server !== undefined && open === -1) return { text: t, tool: `mcp__${server}`, mcpServer: server };
    if (server === undefined && !MCP_RULE.test(name))
      fail(where, text, 'an MCP rule names one tool as mcp__<server>__<tool>, or every tool of a server as mcp__<server>');
    if (open !== -1) fail(where, text, 'an MCP tool rule takes no specifier (write the tool name alone)');
    return { text: t, tool: name as McpRuleTool };
  }
  if (!(RULE_TOOLS as readonly string[]).includes(name)) {
    fail(where, text, `unknown tool "${name}" (one of ${RULE_TOOLS.join(', ')}, or mcp__<server>__<tool>, or mcp__<server>)`);
  }
  const tool = name as RuleTool;
  if (open === -1) return { text: t, tool };
  const close = t.lastIndexOf(')');
  if (close === -1 || close < open) fail(where, text, `missing closing parenthesis (opened at position ${open + 1})`);
  if (close !== t.length - 1) fail(where, text, `unexpected text after the closing parenthesis at position ${close + 2}`);
  const spec = t.slice(open + 1, close).trim();
  if (spec === '') fail(where, text, `empty specifier at position ${open + 2} (write "${tool}" alone to mean every use)`);
  if (tool === 'Bash') {
    const prefix = spec.endsWith(':*');
    const body = prefix ? spec.slice(0, -2).trim() : spec;
    if (body === '') fail(where, text, 'empty command prefix before ":*"');
    if (body.includes(':*')) fail(where, text, `":*" may only end the specifier (position ${open + 2 + spec.indexOf(':*')})`);
    if (/[;&|`$<>\n]/.test(body))
      fail(where, text, 'a Bash rule names one simple command; shell operators (; & | ` $ < >) are not allowed in it');
    return { text: t, tool, bash: { words: body.split(/\s+/), prefix } };
  }
  if (tool === 'TodoWrite') fail(where, text, 'TodoWrite takes no specifier');
  if (spec.startsWith('~') || spec.startsWith('//')) {
    fail(where, text, 'file rules match paths inside the worktree; use ./relative/** patterns');
  }
  if (spec.split('/').includes('..')) fail(where, text, '".." is not allowed in a file rule');
  const pattern = spec.startsWith('./') ? spec.slice(1) : spec;
  return { text: t, tool, paths: ignore().add(pattern) };
}

/** Parse a list; errors carry `permissions.<list>[i]`. */
export function parseRules(list: readonly string[], listName: 'allow' | 'deny'): PermissionRule[] {
  return list.map((r, i) => parseRule(r, `permissions.${listName}[${i}]`));
}
