/**
 * MCP tools under the same rules as Bash (CONTRACT §11): an `execute` tool with no command the policy can
 * read runs only when an allow rule names it (the tool, or its whole server); in plan mode only when its
 * server also declares it read-only; a deny rule wins. The refusal names the rule to add.
 */
import { describe, expect, it } from '@jest/globals';
import { decideProgramTool } from '../../src/agent/permissions/program-tool-decision.js';
import { parseRules } from '../../src/agent/permissions/rules.js';

const policy = (mode: 'plan' | 'default', allow: string[], deny: string[] = []) => ({
  mode,
  allow: parseRules(allow, 'allow'),
  deny: parseRules(deny, 'deny'),
  configFile: '.github/proofpr.yml',
});

describe('MCP tools need an allow rule', () => {
  it('program tools - no rule: refused, and the refusal names the rule to add (the tool, or its server)', () => {
    const d = decideProgramTool(policy('default', ['Bash(npm test:*)', 'mcp__other']), 'mcp__docs__search', true);
    expect(d).toMatchObject({ behavior: 'deny', rule: 'default-deny:no-rule' });
    expect(d.reason).toContain(
      'add "mcp__docs__search" (or "mcp__docs" for every tool of its server) to permissions.allow in .github/proofpr.yml',
    );
  });

  it.each([['mcp__docs__search'], ['mcp__docs'], ['mcp__docs__*']])('program tools - the rule %s allows it in fix mode', (rule) => {
    expect(decideProgramTool(policy('default', [rule]), 'mcp__docs__search', false)).toEqual({
      behavior: 'allow',
      rule: `config-allow:${rule}`,
      reason: '',
    });
  });

  it('program tools - a rule for one tool does not allow another tool of the same server', () => {
    expect(decideProgramTool(policy('default', ['mcp__docs__search']), 'mcp__docs__drop', false).behavior).toBe('deny');
  });

  it('program tools - plan mode: allowed only when a rule names it and the server declares it read-only', () => {
    expect(decideProgramTool(policy('plan', ['mcp__docs']), 'mcp__docs__search', true).behavior).toBe('allow');
    const write = decideProgramTool(policy('plan', ['mcp__docs']), 'mcp__docs__save', false);
    expect(write).toMatchObject({ behavior: 'deny', rule: 'mode:plan' });
    expect(write.reason).toContain('annotations.readOnlyHint');
    expect(decideProgramTool(policy('plan', []), 'mcp__docs__search', true)).toMatchObject({
      behavior: 'deny',
      rule: 'default-deny:no-rule',
    });
  });

  it('program tools - a deny rule wins over an allow rule', () => {
    expect(decideProgramTool(policy('default', ['mcp__docs'], ['mcp__docs__drop']), 'mcp__docs__drop', true)).toMatchObject({
      behavior: 'deny',
      rule: 'config-deny:mcp__docs__drop',
    });
  });
});
