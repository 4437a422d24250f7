import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { actionFixture, git, FIX_STEPS, type ActionFixture } from './harness.js';

const dispatch = () => JSON.parse(readFileSync('test/fixtures/events/workflow_dispatch.json', 'utf8')) as { inputs: { prompt: string } };

describe('action: workflow_dispatch and inputs', () => {
  let fx: ActionFixture;
  beforeAll(async () => {
    fx = await actionFixture();
  });
  afterAll(async () => fx.close());

  it('action - workflow_dispatch with a prompt runs a direct task and opens a verified PR', async () => {
    fx.setSteps(FIX_STEPS);
    const e = dispatch();
    const r = await fx.run('workflow_dispatch', e, { prompt: e.inputs.prompt, max_turns: '8' });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.outputs.verdict).toBe('verified');
    expect(r.outputs.branch).toMatch(/^proofpr\/prompt-median-sorts-values-as-strings-/);
    const pr = fx.github.pulls.find((p) => p.head === r.outputs.branch);
    expect(pr).toMatchObject({ base: 'main', title: e.inputs.prompt, state: 'open' });
    expect(r.outputs.pr_url).toMatch(new RegExp(`/pull/${pr?.number}$`));
    expect(git(fx.bare, 'show', `${r.outputs.branch}:src/stats.js`)).toContain('.sort((a, b) => a - b)');
    const evidence = JSON.parse(readFileSync(r.outputs.evidence_path ?? '', 'utf8')) as { task: { kind: string } };
    expect(evidence.task.kind).toBe('prompt');
  });

  const bad: Array<[string, string, Record<string, string>, RegExp]> = [
    [
      'max_turns is not a number',
      'workflow_dispatch',
      { prompt: 'x', max_turns: 'lots' },
      /input max_turns: "lots" expected a positive whole number/,
    ],
    ['anthropic_api_key is empty', 'workflow_dispatch', { prompt: 'x', anthropic_api_key: '' }, /input anthropic_api_key: is required/],
    ['mode is unknown', 'workflow_dispatch', { prompt: 'x', mode: 'nightly' }, /input mode: "nightly" expected auto, sweep or verify/],
    ['workflow_dispatch has no prompt', 'workflow_dispatch', {}, /input prompt: is required for workflow_dispatch/],
    [
      'config names a missing file',
      'workflow_dispatch',
      { prompt: 'x', config: '.github/nope.yml' },
      /input config: \.github\/nope\.yml: no such file/,
    ],
    [
      'max_cost_usd is negative',
      'workflow_dispatch',
      { prompt: 'x', max_cost_usd: '-3' },
      /input max_cost_usd: "-3" expected a positive number/,
    ],
  ];
  it.each(bad)('action - exits 2 naming the input when %s', async (_name, eventName, inputs, message) => {
    const before = fx.model.requests.length;
    const r = await fx.run(eventName, {}, inputs);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^::error::input /m);
    expect(r.stderr).toMatch(message);
    expect(fx.model.requests.length).toBe(before);
  });
});
