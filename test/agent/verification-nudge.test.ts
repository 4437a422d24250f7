import { describe, expect, it } from '@jest/globals';
import { runAgent, type AgentDeps } from '../../src/agent/loop.js';
import { createVerificationNudge, isVerificationStep, VERIFICATION_NUDGE } from '../../src/agent/nudge/verification-nudge.js';
import type { Verifier } from '../../src/agent/verification/types.js';
import type { TodoItem } from '../../src/agent/events.js';
import { createScriptedModel, text, toolUse, type ScriptStep } from '../../src/model/scripted.js';
import type { ModelRequest } from '../../src/model/model-client.js';
import { todoWriteTool } from '../../src/tools/todo-write.js';
import { createRegistry } from '../../src/tools/registry.js';
import type { ToolDefinition } from '../../src/tools/define-tool.js';
import { agentDeps, baseToolContext, collect } from './helpers.js';
import { tempDir } from '../kit/temp.js';

const done = (...contents: string[]): TodoItem[] => contents.map((content) => ({ content, status: 'completed' }));

const passing: Verifier = {
  beforeBash: async () => undefined,
  afterBash: async () => {
    throw new Error('unused');
  },
  evaluate: async () => ({ ok: true, gates: [{ name: 'tests-ran', passed: true, detail: '3 tests' }], message: '' }),
  finalCheck: async () => ({ ok: true, gates: [{ name: 'tests-ran', passed: true, detail: 'final run: 3 tests' }], message: '' }),
};

function deps(script: ScriptStep[], over: Partial<AgentDeps> = {}) {
  const model = createScriptedModel(script);
  const toolbox = createRegistry([todoWriteTool as ToolDefinition]);
  const d = agentDeps({ model, toolbox, verifier: passing, toolContext: baseToolContext(tempDir('proofpr-loop-')), ...over });
  return { d, model };
}

/** The text blocks (not tool results) of the latest user turn of a request. */
function extraTexts(req: ModelRequest): string[] {
  const last = req.messages[req.messages.length - 1]!;
  return Array.isArray(last.content) ? last.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])) : [];
}

describe('verification nudge', () => {
  it('nudge - three completed todos without a verification step get the reminder once', () => {
    const n = createVerificationNudge();
    const plan = done('Read the parser', 'Fix the date format', 'Update the docs');
    expect(n.observe(plan)).toBe(VERIFICATION_NUDGE);
    expect(n.observe(plan)).toBeUndefined();
  });

  it('nudge - a plan with a verification step, an open item or fewer than three items gets none', () => {
    const n = createVerificationNudge();
    expect(n.observe(done('Read the parser', 'Fix the date format', 'Run the tests'))).toBeUndefined();
    expect(n.observe(done('Read the parser', 'Fix the date format'))).toBeUndefined();
    expect(
      n.observe([...done('Read the parser', 'Fix the date format'), { content: 'Update the docs', status: 'pending' }]),
    ).toBeUndefined();
  });

  it('nudge - verification steps are recognised by what they do', () => {
    for (const s of [
      'Run npm test',
      'Verify the fix',
      'Reproduce the failure first',
      'Add a regression test',
      'Check the edge cases',
      'Run the linter: npm run lint',
    ])
      expect(isVerificationStep(s)).toBe(true);
    for (const s of ['Read the parser', 'Fix the date format', 'Update the README', 'Rename the helper'])
      expect(isVerificationStep(s)).toBe(false);
  });

  it('nudge - the request after TodoWrite closes an unverified plan carries the reminder; the gates still decide', async () => {
    const todos = done('Read the parser', 'Fix the date format', 'Update the docs');
    const { d, model } = deps([{ content: [toolUse('TodoWrite', { todos }, 't1')] }, { content: [text('done')] }]);
    const { result } = await collect(runAgent({ prompt: 'go' }, d));
    expect(result.status).toBe('completed');
    expect(extraTexts(model.requests[1]!)).toEqual([VERIFICATION_NUDGE]);
  });

  it('nudge - a closed plan with a test step, and a read-only run, carry no reminder', async () => {
    const verified = done('Read the parser', 'Fix the date format', 'Run the tests');
    const a = deps([{ content: [toolUse('TodoWrite', { todos: verified }, 't1')] }, { content: [text('done')] }]);
    await collect(runAgent({ prompt: 'go' }, a.d));
    expect(extraTexts(a.model.requests[1]!)).toEqual([]);
    const unverified = done('Read the parser', 'Find the cause', 'Write the plan');
    const b = deps([{ content: [toolUse('TodoWrite', { todos: unverified }, 't1')] }, { content: [text('plan')] }]);
    const readOnly: AgentDeps = { ...b.d };
    delete readOnly.verifier;
    await collect(runAgent({ prompt: 'go' }, readOnly));
    expect(extraTexts(b.model.requests[1]!)).toEqual([]);
  });
});
