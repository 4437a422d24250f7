/**
 * Compaction through the loop with the real context manager and the scripted model: a prompt-too-long
 * error compacts, the model's free-form summary is accepted as written, the harness appends its own facts
 * (failing gates with their logs, edits since the last passing test run, the plan, the test command), the
 * run continues, and the evidence counts the compaction. The summary request itself may be too long: it
 * is retried without the oldest rounds.
 */
import { describe, expect, it } from '@jest/globals';
import { COMPACTION_SYSTEM_PROMPT } from '../../src/agent/context/compaction.js';
import type { Verifier, StopVerdict } from '../../src/agent/verification/types.js';
import type { GateResult } from '../../src/agent/events.js';
import type { ModelRequest } from '../../src/model/model-client.js';
import { createScriptedModel, text, toolUse, type ScriptStep } from '../../src/model/scripted.js';
import type { ToolResult } from '../../src/tools/define-tool.js';
import { stubToolbox } from '../agent/helpers.js';
import { contextManager, evidenceOf, filler, loopDeps, runLoop, useFixtureRepo } from './helpers.js';

const FAILING: GateResult = { name: 'tests_passed', passed: false, detail: '1 failed: parser keeps the last line' };
const PASSING: GateResult = { name: 'tests_passed', passed: true, detail: '14 passed' };
const TEST_LOG = 'tool-output/toolu_bash1.txt';
const FREE_FORM = 'I looked at the parser and changed a few things. Tests look fine I think.';

/** Gates fail at the first stop, pass at the next one and at the final check. */
function verifier(): Verifier {
  let stops = 0;
  const verdict = (ok: boolean): StopVerdict => ({
    ok,
    gates: [ok ? PASSING : FAILING],
    message: ok ? '' : 'Gate tests_passed failed: 1 failed. Fix it before stopping.',
  });
  return {
    beforeBash: async () => undefined,
    afterBash: async () => {
      throw new Error('not called: beforeBash returns no handle');
    },
    evaluate: async () => verdict(++stops > 1),
    finalCheck: async () => verdict(true),
  };
}

const exec = (command: string, exitCode: number, outputPath?: string): ToolResult['effects'] => [
  {
    type: 'exec',
    command,
    exitCode,
    startedAt: '2025-03-01T00:00:00.000Z',
    endedAt: '2025-03-01T00:00:01.000Z',
    timedOut: false,
    ...(outputPath ? { outputPath } : {}),
  },
];

const toolbox = stubToolbox(
  {
    TodoWrite: () => ({
      forModel: 'todos updated',
      isError: false,
      effects: [
        {
          type: 'todos',
          todos: [
            { content: 'reproduce the dropped last line', status: 'completed' },
            { content: 'fix splitLines in src/parser.ts', status: 'in_progress' },
          ],
        },
      ],
    }),
    Edit: (i) => ({
      forModel: `edited ${String(i.file_path)}`,
      isError: false,
      effects: [{ type: 'file_changed', path: String(i.file_path) }],
    }),
    Bash: (i) =>
      String(i.command) === 'npm test'
        ? {
            forModel: `FAIL test/parser.test.ts\n${filler('jest', 60_000)}`,
            isError: true,
            outputPath: TEST_LOG,
            effects: exec('npm test', 1, TEST_LOG),
          }
        : { forModel: 'ok', isError: false, effects: exec(String(i.command), 0) },
    Read: (i) => ({ forModel: `${String(i.file_path)}\n${filler(String(i.file_path), i.big ? 60_000 : 3_000)}`, isError: false }),
  },
  ['Read'],
);

const isSummary = (r: ModelRequest): boolean => r.system[0]?.text === COMPACTION_SYSTEM_PROMPT;
const userText = (r: ModelRequest): string => JSON.stringify(r.messages);
/** The summary request's transcript, as plain text. */
const transcriptOf = (r: ModelRequest): string => String(r.messages[0]?.content);

describe('compaction through the loop', () => {
  const repo = useFixtureRepo();

  async function deps(script: (r: ModelRequest, mainTurn: number) => ScriptStep) {
    let mainTurn = 0;
    const model = createScriptedModel((r) => (isSummary(r) ? script(r, mainTurn) : script(r, ++mainTurn)));
    const context = await contextManager(repo.root, {
      toolNames: ['Bash', 'Edit', 'Read', 'TodoWrite'],
      gatesEnabled: ['tests_passed'],
      testCommand: 'npm test',
    });
    const d = loopDeps(
      { root: repo.root, model, context, toolbox },
      { verifier: verifier(), budget: { maxTurns: 20, maxCostUsd: 5, timeoutMs: 60_000 } },
    );
    return { d, model };
  }

  it('compaction-loop - prompt-too-long compacts with a free-form summary; the next request carries the harness facts; usage counts it', async () => {
    const { d, model } = await deps((r, n) => {
      if (isSummary(r)) return { content: [text(FREE_FORM)] };
      if (n === 1)
        return {
          content: [
            toolUse('TodoWrite', {}, 't1'),
            toolUse('Bash', { command: 'npm test' }, 't2'),
            toolUse('Edit', { file_path: 'src/parser.ts' }, 't3'),
            toolUse('Edit', { file_path: 'src/lines.ts' }, 't4'),
          ],
        };
      if (n === 2) return { content: [text('Done, the parser is fixed.')] };
      if (n === 3) return { error: 'prompt_too_long', message: 'prompt is too long: 201234 tokens > 200000 maximum' };
      return { content: [text('Fixed for real now.')] };
    });
    const { events, result } = await runLoop(d);
    expect(result).toMatchObject({ status: 'completed', compactions: 1 });

    const compactions = events.filter((e) => e.type === 'compaction');
    expect(compactions).toHaveLength(1);
    expect(compactions[0]).toMatchObject({ kind: 'summary', ok: true });
    expect(evidenceOf(events).usage.compactions).toBe(1);

    // The request after the compaction: the summary as written plus the harness's facts.
    const main = model.requests.filter((r) => !isSummary(r));
    expect(main).toHaveLength(4);
    const next = userText(main[3]!);
    expect(next).toContain(FREE_FORM);
    expect(next).toContain('Gate status: FAILING tests_passed.');
    expect(next).toContain(`- FAILED tests_passed: ${FAILING.detail} (latest failing test run log: ${TEST_LOG})`);
    expect(next).toContain(`- FAILING \`npm test\`: exit 1, and files changed since (log: ${TEST_LOG})`);
    expect(next).toContain(
      'Edits since the last passing test run: no test run has passed yet; unverified edits: src/parser.ts, src/lines.ts',
    );
    expect(next).toContain('Test command: `npm test`');
    expect(next).toContain('[~] fix splitLines in src/parser.ts');
    expect(next).toContain('[x] reproduce the dropped last line');
    // smaller than the request that was refused
    expect(next.length).toBeLessThan(userText(main[2]!).length / 2);
  });

  it('compaction-loop - edits since the last passing test run are only the files changed after it', async () => {
    const { d, model } = await deps((r, n) => {
      if (isSummary(r)) return { content: [text('short note')] };
      if (n === 1)
        return {
          content: [toolUse('Edit', { file_path: 'src/parser.ts' }, 'e1'), toolUse('Bash', { command: 'npm  test -- parser' }, 'b1')],
        };
      if (n === 2)
        return {
          content: [toolUse('Edit', { file_path: 'src/lines.ts' }, 'e2'), toolUse('Read', { file_path: 'README.md', big: true }, 'r1')],
        };
      if (n === 3) return { error: 'prompt_too_long', message: 'prompt is too long' };
      if (n === 4) return { content: [text('done')] };
      return { content: [text('done again')] };
    });
    const { events } = await runLoop(d);
    expect(evidenceOf(events).usage.compactions).toBe(1);
    const next = userText(model.requests.filter((r) => !isSummary(r))[3]!);
    // `npm  test -- parser` passed (exit 0) after the parser edit: only lines.ts changed since
    expect(next).toContain('Edits since the last passing test run: src/lines.ts\\n');
    expect(next).toContain('Files edited so far: src/parser.ts, src/lines.ts');
  });

  it('compaction-loop - a summary request that is itself too long is retried without the oldest rounds and succeeds', async () => {
    let summaryCalls = 0;
    const { d, model } = await deps((r, n) => {
      if (isSummary(r)) {
        summaryCalls++;
        if (summaryCalls === 1) return { error: 'prompt_too_long', message: 'prompt is too long: 150020 tokens > 150000 maximum' };
        return { content: [text('Summary after the retry.')] };
      }
      if (n <= 4) return { content: [toolUse('Read', { file_path: `src/file${n}.ts` }, `r${n}`)] };
      if (n === 5) return { error: 'prompt_too_long', message: 'prompt is too long: 200100 tokens > 200000 maximum' };
      return { content: [text('done')] };
    });
    const { events, result } = await runLoop(d);
    expect(result.compactions).toBe(1);
    expect(evidenceOf(events).usage.compactions).toBe(1);
    const [first, retry] = model.requests.filter(isSummary).map(transcriptOf);
    expect(first).toContain('[tool call Read] {"file_path":"src/file1.ts"}');
    // the gap (20 tokens ≈ 80 characters) is covered by dropping the oldest round
    expect(retry).not.toContain('src/file1.ts');
    expect(retry).toContain('[tool call Read] {"file_path":"src/file2.ts"}');
    expect(retry).toContain('src/file4.ts');
    expect(retry).toContain('[… 1 earlier rounds omitted to fit …]');
    expect(retry!.length).toBeLessThan(first!.length);
    const ev = events.find((e) => e.type === 'compaction');
    expect(ev).toMatchObject({ kind: 'summary', ok: true });
    expect(ev?.type === 'compaction' && ev.detail).toMatch(/summary request too long .*retried without the 1 oldest rounds/);
    expect(userText(model.requests.filter((r) => !isSummary(r))[5]!)).toContain('Summary after the retry.');
  });
  it('compaction-loop - a failed attempt (history unchanged) is an ok:false event and counted by neither the loop nor the evidence', async () => {
    const { d } = await deps((r, n) => {
      if (isSummary(r)) return { error: 'fatal', message: 'overloaded' };
      if (n === 1) return { error: 'prompt_too_long', message: 'prompt is too long' };
      return { content: [text('done')] };
    });
    const { events, result } = await runLoop(d);
    expect(result.status).toBe('completed');
    expect(events.filter((e) => e.type === 'compaction')).toEqual([expect.objectContaining({ ok: false, kind: 'summary' })]);
    expect(result.compactions).toBe(0);
    expect(evidenceOf(events).usage.compactions).toBe(0);
  });
});
