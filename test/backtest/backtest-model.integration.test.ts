import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { backtestCommand } from '../../src/hosts/cli/backtest-command.js';
import type { BacktestReport } from '../../src/backtest/types.js';
import { startFakeMessagesServer, type FakeMessagesServer } from '../fakes/fake-server.js';
import { config, fixtureHistory, math, nodeTest, pkg } from './fixture-history.js';

/** Words that appear only in the upstream test changes (the held-out tests). */
const HELD_OUT = ['heldout-add-7f3a', 'heldout-mul-91c2'];

function history() {
  return fixtureHistory([
    {
      message: 'initial',
      files: {
        '.github/proofpr.yml': config('node --test'),
        'package.json': pkg('node --test'),
        'src/math.js': math('a - b', 'a * b + 1'),
        'test/math.test.js': nodeTest([['sub', 'sub(3, 1) === 2']]),
      },
    },
    {
      message: 'fix add: it subtracted\n\nadd(2, 2) returned 0.',
      files: { 'src/math.js': math('a + b', 'a * b + 1'), 'test/add.test.js': nodeTest([[HELD_OUT[0]!, 'add(2, 2) === 4']]) },
    },
    {
      message: 'fix mul: it added one to the product\n\nmul(2, 3) returned 7.',
      files: { 'src/math.js': math('a + b', 'a * b'), 'test/mul.test.js': nodeTest([[HELD_OUT[1]!, 'mul(2, 3) === 6']]) },
    },
  ]);
}

const tool = (n: number, name: string, input: unknown) => ({
  content: [{ type: 'tool_use', id: `toolu_${n}`, name, input }],
  stop_reason: 'tool_use',
});
const done = { content: [{ type: 'text', text: 'Done.' }], stop_reason: 'end_turn' };

/**
 * The scripted agent: for the add issue, the right fix with its own test; for the mul issue, a wrong fix
 * (mul(2, 3) = 5) with a test that expects it, so proofpr's checks pass and the held-out test does not.
 */
function agent(body: unknown): unknown {
  const b = body as { messages: Array<{ role: string }> };
  const step = b.messages.filter((m) => m.role === 'assistant').length + 1;
  const mul = JSON.stringify(b.messages[0]).includes('fix mul');
  const plan = mul
    ? [
        tool(step, 'Read', { file_path: 'src/math.js' }),
        tool(step, 'Edit', { file_path: 'src/math.js', old_string: 'a * b + 1', new_string: 'a * b - 1' }),
        tool(step, 'Write', { file_path: 'test/mul-agent.test.js', content: nodeTest([['mul', 'mul(2, 3) === 5']]) }),
        tool(step, 'Bash', { command: 'node --test' }),
      ]
    : [
        tool(step, 'Read', { file_path: 'src/math.js' }),
        tool(step, 'Edit', { file_path: 'src/math.js', old_string: 'add = (a, b) => a - b', new_string: 'add = (a, b) => a + b' }),
        tool(step, 'Write', { file_path: 'test/add-agent.test.js', content: nodeTest([['add', 'add(1, 2) === 3']]) }),
        tool(step, 'Bash', { command: 'node --test' }),
      ];
  return plan[step - 1] ?? done;
}

describe('proofpr backtest --model (a scripted model behind ANTHROPIC_BASE_URL)', () => {
  const made = history();
  let server: FakeMessagesServer;
  beforeAll(async () => {
    server = await startFakeMessagesServer((body) => agent(body));
  });
  afterAll(async () => {
    await server.close();
  });

  it('backtest --model - the held-out tests never reach a model request; the report counts resolved and verified-but-not-resolved', async () => {
    const out = join(made.work, 'out');
    let stdout = '';
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PROOFPR_HOME: join(made.work, 'home'),
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'sk-ant-test-0000000000',
    };
    const code = await backtestCommand(
      { repo: made.repo, last: '2', out, model: 'claude-sonnet-5-5' },
      { env, stdout: (s) => (stdout += s), stderr: () => {} },
    );
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'backtest.json'), 'utf8')) as BacktestReport;
    const [, fixAdd, fixMul] = made.ids;
    expect(report.cases.map((c) => c.commit)).toEqual([fixMul, fixAdd]);

    // The agent worked from the commit messages, and no request of a case held any word of that case's
    // upstream test change (nor of a later one). The add test is part of the mul case's parent: it may show there.
    const bodies = server.requests.map((r) => JSON.stringify(r));
    const addCase = bodies.filter((b) => b.includes('<title>fix add'));
    const mulCase = bodies.filter((b) => b.includes('<title>fix mul'));
    expect(addCase.length).toBeGreaterThan(0);
    expect(mulCase.length).toBeGreaterThan(0);
    expect(addCase.length + mulCase.length).toBe(bodies.length);
    expect(mulCase.join('')).toContain('mul(2, 3) returned 7.');
    for (const b of addCase) for (const word of HELD_OUT) expect(b).not.toContain(word);
    for (const b of mulCase) expect(b).not.toContain(HELD_OUT[1]);

    const [mul, add] = report.cases;
    expect(mul!.agent).toMatchObject({ verdict: 'verified', resolved: false, agreed: false });
    expect(add!.agent).toMatchObject({ verdict: 'verified', resolved: true, agreed: true });
    expect(report.summary).toMatchObject({ cases: 2, resolved: 1, resolveRate: 0.5, verifiedNotResolved: 1, verifiedNotResolvedRate: 0.5 });
    expect(report.model).toBe('claude-sonnet-5-5');
    expect(stdout).toMatch(/resolved 1\/2 \(50%\); verified but not resolved: 1 \(50%\)/);
  }, 1_500_000);
});
