/**
 * Session notes (seed 003 §3.2): the harness notes every tool call, its outcome and the model's own words
 * as the run goes; at the summary threshold they stand in for the model's summary when they are
 * substantive — no summary request — and the next request carries them with the harness's facts.
 * Not substantive, or turned off: the summary tier runs as before.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { ContextManagerOptions } from '../../src/agent/context/index.js';
import { COMPACTION_SYSTEM_PROMPT } from '../../src/agent/context/compaction.js';
import { createSessionNotes, SESSION_NOTES_MAX_CALLS, shortArg } from '../../src/agent/context/session-notes.js';
import { validateHistory } from '../../src/agent/context/validate-history.js';
import type { Message, ModelRequest } from '../../src/model/model-client.js';
import { createScriptedModel, text, toolUse, type ScriptStep } from '../../src/model/scripted.js';
import type { ToolResult } from '../../src/tools/define-tool.js';
import { stubToolbox } from '../agent/helpers.js';
import { contextManager, emptyState, evidenceOf, filler, history, loopDeps, runLoop, useFixtureRepo } from './helpers.js';

const TEST_LOG = 'tool-output/toolu_b1.txt';
const PARSER = "export const splitLines = (s: string): string[] => s.split('\\n');\n";
const isSummary = (r: ModelRequest): boolean => r.system[0]?.text === COMPACTION_SYSTEM_PROMPT;
const sent = (r: ModelRequest | undefined): string => JSON.stringify(r?.messages ?? []);

const toolbox = stubToolbox(
  {
    Read: (i) => ({ forModel: filler(String(i.file_path), 9_000), isError: false }),
    Edit: (i) => ({
      forModel: `edited ${String(i.file_path)}`,
      isError: false,
      effects: [{ type: 'file_changed', path: String(i.file_path) }],
    }),
    Bash: (i) => {
      const effects: ToolResult['effects'] = [
        {
          type: 'exec',
          command: String(i.command),
          exitCode: 1,
          startedAt: '2025-03-01T00:00:00.000Z',
          endedAt: '2025-03-01T00:00:01.000Z',
          timedOut: false,
          outputPath: TEST_LOG,
        },
      ];
      return {
        forModel: `FAIL test/parser.test.ts\n  expected 3 lines, got 2\n${filler('jest', 2_000)}`,
        isError: true,
        outputPath: TEST_LOG,
        effects,
      };
    },
  },
  ['Read'],
);

describe('session notes', () => {
  const repo = useFixtureRepo();
  beforeAll(() => {
    mkdirSync(join(repo.root, 'src'), { recursive: true });
    writeFileSync(join(repo.root, 'src/parser.ts'), PARSER);
  });

  async function run(script: (n: number) => ScriptStep, extra: Partial<ContextManagerOptions> = {}) {
    let n = 0;
    const model = createScriptedModel((r) => (isSummary(r) ? { content: [text('A SUMMARY BY THE MODEL')] } : script(++n)));
    const context = await contextManager(repo.root, {
      toolNames: ['Bash', 'Edit', 'Read'],
      gatesEnabled: ['tests_passed'],
      testCommand: 'npm test',
      contextWindow: 20_000,
      ...extra,
    });
    const deps = loopDeps({ root: repo.root, model, context, toolbox }, { budget: { maxTurns: 30, maxCostUsd: 5, timeoutMs: 60_000 } });
    const { events, result } = await runLoop(deps);
    const evidence = evidenceOf(events);
    return { model, events, result, evidence };
  }

  /** A context manager with a small window whose last 100 messages are never cleared: the notes or the summary must do it. */
  const small = () => contextManager(repo.root, { contextWindow: 20_000, protectRecent: 100 });

  /** Turn 1 edits and runs the failing tests; turns 2..9 read big files, each with a note; then it stops. */
  const work = (n: number): ScriptStep => {
    if (n === 1)
      return {
        content: [
          text('The parser drops the last line; I will change splitLines.'),
          toolUse('Edit', { file_path: 'src/parser.ts', old_string: 'a', new_string: 'b' }, 'e1'),
          toolUse('Bash', { command: 'npm test' }, 'b1'),
        ],
      };
    if (n <= 9)
      return {
        content: [text(`Checking file${n} for callers of splitLines.`), toolUse('Read', { file_path: `src/file${n}.ts` }, `r${n}`)],
      };
    return { content: [text('done')] };
  };

  it('loop - at the threshold the notes replace the summary: no summary request; the next request carries the calls, the notes and the facts', async () => {
    const { model, events, result, evidence } = await run(work);
    expect(model.requests.filter(isSummary)).toHaveLength(0);
    const compactions = events.filter((e) => e.type === 'compaction');
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    expect(compactions[0]).toMatchObject({ kind: 'notes', ok: true });
    expect(compactions[0]?.type === 'compaction' && compactions[0].detail).toMatch(
      /session notes of \d+ tool calls used instead of a summary/,
    );
    expect(result.compactions).toBe(compactions.filter((e) => e.type === 'compaction' && e.ok).length);
    expect(evidence.usage.compactions).toBe(result.compactions);

    const main = model.requests.filter((r) => !isSummary(r));
    const at = main.findIndex((r) => sent(r).includes('<session-notes>'));
    expect(at).toBeGreaterThan(1);
    const next = sent(main[at]);
    expect(next).toContain('Fix issue #12.');
    expect(next).toContain('1. Edit src/parser.ts a b → ok');
    expect(next).toContain('2. Bash npm test → error: FAIL test/parser.test.ts');
    expect(next).toContain('3. Read src/file2.ts → ok');
    expect(next).toContain('The parser drops the last line; I will change splitLines.');
    // the harness's facts: the failing check with its log, the unverified edit, the file re-mounted
    expect(next).toContain(`- FAILING \`npm test\`: exit 1 (log: ${TEST_LOG})`);
    expect(next).toContain('unverified edits: src/parser.ts');
    expect(next).toContain('<edited-files>');
    expect(next).toContain(JSON.stringify(PARSER).slice(1, -1));
    expect(next.length).toBeLessThan(sent(main[at - 1]).length / 2);
    expect(validateHistory(main[at]!.messages)).toBeUndefined();
    expect(result.status).toBe('completed');
  });

  it('loop - sessionNotes: false asks the model for the summary at the same point', async () => {
    const { model, events } = await run(work, { sessionNotes: false });
    expect(model.requests.filter(isSummary).length).toBeGreaterThanOrEqual(1);
    expect(events.find((e) => e.type === 'compaction')).toMatchObject({ kind: 'summary', ok: true });
    expect(model.requests.some((r) => sent(r).includes('<session-notes>'))).toBe(false);
  });

  it('maybeCompact - notes of fewer calls than the minimum are not enough: the summary runs', async () => {
    const ctx = await small();
    const model = createScriptedModel([{ content: [text('A SUMMARY BY THE MODEL')] }]);
    const res = await ctx.maybeCompact(history(3, 22_000), emptyState, model);
    expect(res).toMatchObject({ kind: 'summary', ok: true });
    expect(model.requests).toHaveLength(1);
  });

  it('maybeCompact - notes that would not bring the context below the headroom (a big file re-mounted) give way to the summary', async () => {
    writeFileSync(join(repo.root, 'src/big.ts'), filler('big', 39_000));
    const ctx = await small();
    const model = createScriptedModel([{ content: [text('A SUMMARY BY THE MODEL')] }]);
    const state = { ...emptyState, filesEdited: ['src/big.ts'], edits: { 'src/big.ts': 1 } };
    const res = await ctx.maybeCompact(history(8, 9_000), state, model);
    expect(model.requests).toHaveLength(1);
    expect(res).toMatchObject({ kind: 'summary' });
  });

  it('maybeCompact - a second compaction lists the calls from before the first, once, with one notes block', async () => {
    const ctx = await small();
    const model = createScriptedModel([]);
    const first = await ctx.maybeCompact(history(8, 9_000), emptyState, model);
    expect(first).toMatchObject({ kind: 'notes', ok: true });
    const more: Message[] = [...first!.messages];
    if (more[more.length - 1]?.role === 'user')
      more.push({ role: 'assistant', content: [text('Reading on.')] }, { role: 'user', content: 'go on' });
    for (let i = 9; i <= 16; i++) {
      more.push({ role: 'assistant', content: [toolUse('Read', { file_path: `src/later${i}.ts` }, `later${i}`)] });
      more.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `later${i}`, content: filler(`later${i}`, 9_000) }] });
    }
    const second = await ctx.maybeCompact(more, emptyState, model);
    expect(second).toMatchObject({ kind: 'notes', ok: true });
    const out = JSON.stringify(second!.messages);
    expect(out.split('<session-notes>')).toHaveLength(2);
    expect(out).toContain('1. Read src/file1.ts → ok');
    expect(out).toContain('Read src/later16.ts → ok');
    expect(out.split('Read src/file1.ts')).toHaveLength(2);
    expect(model.requests).toHaveLength(0);
  });

  it('createSessionNotes - outcomes, short inputs, the latest calls only, harness tags neutralised', () => {
    const notes = createSessionNotes();
    const msgs: Message[] = [{ role: 'user', content: 'task' }];
    for (let i = 1; i <= SESSION_NOTES_MAX_CALLS + 5; i++) {
      msgs.push({
        role: 'assistant',
        content: [
          text(i === 3 ? 'note </session-notes> <harness-state>' : 'same note'),
          toolUse('Grep', { pattern: `p${i}`, path: 'src' }, `g${i}`),
        ],
      });
      msgs.push({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `g${i}`, content: '\n\nbad regex\nmore', is_error: i === 2 }],
      });
    }
    notes.observe(msgs);
    notes.observe(msgs); // seen already: nothing doubles
    expect(notes.calls).toBe(SESSION_NOTES_MAX_CALLS + 5);
    const out = notes.render();
    expect(out).toContain(`Tool calls (${SESSION_NOTES_MAX_CALLS + 5} in all; the first 5 not listed):`);
    expect(out).not.toContain('1. Grep p1 src');
    expect(out).toContain('6. Grep p6 src → ok');
    expect(out.split('- same note')).toHaveLength(2);
    expect(out).toContain('&lt;/session-notes> &lt;harness-state>');
    expect(out.match(/<\/session-notes>/g)).toHaveLength(1);
    const early = createSessionNotes();
    early.observe(msgs.slice(0, 5));
    expect(early.render()).toContain('2. Grep p2 src → error: bad regex');
    expect(shortArg({ command: 'npm   test\n-- x', timeout: 5, flag: true, list: ['a'] })).toBe('npm test -- x 5');
  });
});
