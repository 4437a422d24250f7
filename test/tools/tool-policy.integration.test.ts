/**
 * Every tool the model can be offered has a way through the real permission policy (the policy asks the
 * tool what a call is and touches; it keeps no list of tool names), and its schema is snapshotted.
 */
import { describe, it, expect } from '@jest/globals';
import { createRegistry } from '../../src/tools/registry.js';
import { defaultTools } from '../../src/tools/index.js';
import { skillTool } from '../../src/tools/skill.js';
import type { ToolDefinition } from '../../src/tools/define-tool.js';
import { makePolicyRepo } from '../permissions/fixture-repo.js';
import { policyOver, usePolicies } from '../kit/walls-policy.js';

/** Every tool a run may register: the defaults and the Skill tool (registered when the repository has skills). */
const registry = createRegistry([
  ...defaultTools(),
  skillTool([{ name: 'release', path: '.proofpr/skills/release/SKILL.md', body: '# Release' }]) as ToolDefinition,
]);

/** One ordinary call per tool; a tool added without one fails the first test. */
const sample: Record<string, unknown> = {
  Read: { file_path: 'src/a.ts' },
  Write: { file_path: 'src/new.ts', content: 'x' },
  Edit: { file_path: 'src/a.ts', old_string: '1', new_string: '2' },
  Glob: { pattern: '**/*.ts' },
  Grep: { pattern: 'export', path: 'src' },
  Bash: { command: 'git status' },
  TodoWrite: { todos: [{ content: 'fix it', status: 'pending' }] },
  Skill: { name: 'release' },
};

let root = '';
const { policy } = usePolicies(() => (root = makePolicyRepo().root), { policy: { tools: registry } });

describe('every registered tool', () => {
  it('tools - each registered tool has a sample call here', () => {
    expect(Object.keys(sample).sort()).toEqual(registry.names().sort());
  });

  it.each(registry.names())('tools - %s: an ordinary call passes the real policy', async (name) => {
    const parsed = registry.parse(name, sample[name]);
    expect(parsed.ok).toBe(true);
    const d = await policy.check(name, parsed.ok ? parsed.input : undefined);
    expect(d).toMatchObject({ behavior: 'allow' });
    expect(d.rule).not.toBe('default-deny');
  });

  it('tools - a name no tool has is refused, naming the registered tools', async () => {
    const d = await policy.check('Nope', {});
    expect(d).toMatchObject({ behavior: 'deny', rule: 'default-deny' });
    expect(d.reason).toContain(registry.names().join(', '));
  });

  it('tools - a bare deny rule naming a tool that touches no path still holds', async () => {
    const p = await policyOver(root, { deny: ['TodoWrite'], tools: registry });
    expect(await p.check('TodoWrite', sample.TodoWrite)).toMatchObject({ behavior: 'deny', rule: 'config-deny:TodoWrite' });
    expect(await p.check('Skill', sample.Skill)).toMatchObject({ behavior: 'allow' });
  });

  it.each(registry.names())('tools - %s: kind and schema (what the model sees)', (name) => {
    expect({ kind: registry.kindOf(name), schema: registry.schemas().find((s) => s.name === name) }).toMatchSnapshot();
  });
});
