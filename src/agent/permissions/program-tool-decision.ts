/**
 * Tools that run a program the policy cannot look into: an `execute` tool with no command to parse (an
 * MCP server's tool). None runs without an allow rule that names it, like a Bash command without one;
 * in plan mode (read-only) it runs only when its server also declares it read-only.
 */
import type { PermissionDecision } from './types.js';
import { ruleNamesTool, type PermissionRule } from './rules.js';

export interface ProgramToolPolicy {
  mode: 'plan' | 'default';
  allow: PermissionRule[];
  deny: PermissionRule[];
  configFile: string;
}

/** `mcp__docs__search` → `mcp__docs` (the rule for every tool of the server), else undefined. */
function serverRule(tool: string): string | undefined {
  return /^(mcp__[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*)__/.exec(tool)?.[1];
}

const no = (rule: string, reason: string): PermissionDecision => ({ behavior: 'deny', rule, reason });

/** Deny rules, then an allow rule naming the tool (or its server), then plan mode's read-only declaration. */
export function decideProgramTool(p: ProgramToolPolicy, tool: string, readOnly: boolean): PermissionDecision {
  const denied = p.deny.find((r) => ruleNamesTool(r, tool));
  if (denied) return no(`config-deny:${denied.text}`, `${tool} is refused by permissions.deny "${denied.text}" in ${p.configFile}`);
  const allowed = p.allow.find((r) => ruleNamesTool(r, tool));
  if (!allowed) {
    const server = serverRule(tool);
    const whole = server ? ` (or "${server}" for every tool of its server)` : '';
    return no(
      'default-deny:no-rule',
      `${tool} runs a program the harness cannot check, so it runs only when an allow rule names it: add "${tool}"${whole} to permissions.allow in ${p.configFile}`,
    );
  }
  if (p.mode === 'plan' && !readOnly)
    return no(
      'mode:plan',
      `plan mode is read-only: ${tool} is not declared read-only by its server (annotations.readOnlyHint), so it does not run in plan mode; describe what you would use it for in your plan instead`,
    );
  return { behavior: 'allow', rule: `config-allow:${allowed.text}`, reason: '' };
}
