import { describe, it, expect } from '@jest/globals';
import type { Message } from '../../src/model/model-client.js';
import { createScriptedModel, text } from '../../src/model/scripted.js';
import { microcompact, STUB_PREFIX } from '../../src/agent/context/microcompact.js';
import { validateHistory } from '../../src/agent/context/validate-history.js';
import { createCompactionBreaker } from '../../src/agent/context/compaction-breaker.js';
import { COMPACTION_SYSTEM_PROMPT } from '../../src/agent/context/compaction.js';
import type { CompactionState } from '../../src/agent/context/types.js';
import { contextManager, emptyState, facts, history, useFixtureRepo } from './helpers.js';

/** A summary that forgets the failing check and claims success: the harness state must still carry it. */
const LYING_SUMMARY = [
  '## Task',
  'Fix the parser dropping the last line.',
  '## Decisions',
  'Patched splitLines.',
  '## Files touched',
  'src/parser.ts',
  '## Unverified or failing checks',
  'None: all tests pass.',
  '## Next steps',
  'Stop.',
].join('\n');

const state: CompactionState = {
  todos: [
    { content: 'fix splitLines', status: 'completed' },
    { content: 'make test/parser.test.ts pass', status: 'in_progress' },
  ],
  filesEdited: ['src/parser.ts'],
  gates: [
    { name: 'tests_ran', passed: true, detail: '14 tests ran' },
    { name: 'tests_passed', passed: false, detail: '1 failed: parser keeps the last line' },
    { name: 'assertions_kept', passed: false, detail: 'test/parser.test.ts lost 1 expect' },
  ],
  failingLogs: ['runs/r1/tool-output/toolu_021.txt', 'runs/r1/tool-output/toolu_027.txt'],
};

function contentOf(messages: Message[]): string {
  return JSON.stringify(messages);
}

describe('microcompact', () => {
  it('microcompact - clears results older than the protected window with a stub naming tool and input', () => {
    const hist = history(10);
    const res = microcompact(hist, { protectRecent: 6 });
    expect(res.cleared).toBe(4);
    expect(res.savedTokens).toBeGreaterThan(1500);
    const results = res.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((b) => b.type === 'tool_result')));
    expect(results.slice(0, 4).every((b) => b.type === 'tool_result' && b.content.startsWith(STUB_PREFIX))).toBe(true);
    expect(results.slice(4).every((b) => b.type === 'tool_result' && !b.content.startsWith(STUB_PREFIX))).toBe(true);
    expect(results[0]).toMatchObject({ tool_use_id: 'toolu_001' });
    expect(results[0]?.type === 'tool_result' && results[0].content).toMatch(
      /^\[Old tool result cleared to save context: Read \{"file_path":"src\/file1.ts"\} → \d+ lines, 2\.0 KB; run the tool again if you need it\.\]$/,
    );
    expect(validateHistory(res.messages)).toBeUndefined();
    expect(contentOf(hist)).toBe(contentOf(history(10)));
  });

  it('microcompact - keeps the tool-output path of a saved output and the error flag', () => {
    const hist = history(3);
    const user = hist[2] as Message & { role: 'user' };
    user.content = [
      {
        type: 'tool_result',
        tool_use_id: 'toolu_001',
        is_error: true,
        content: `FAIL test/parser.test.ts\n${'x'.repeat(800)}\n[Output too long. The full output is saved at runs/r1/tool-output/toolu_001.txt: use Read]`,
      },
    ];
    const res = microcompact(hist, { protectRecent: 1 });
    const stub = JSON.stringify(res.messages[2]);
    expect(stub).toContain('(error)');
    expect(stub).toContain('full output saved at runs/r1/tool-output/toolu_001.txt');
    expect(stub).toContain('"is_error":true');
  });

  it('microcompact - running it again changes nothing', () => {
    const once = microcompact(history(10), { protectRecent: 6 });
    const twice = microcompact(once.messages, { protectRecent: 6 });
    expect(twice.cleared).toBe(0);
    expect(twice.messages).toBe(once.messages);
  });
});

describe('summary compaction', () => {
  const repo = useFixtureRepo();

  const manager = (extra: { protectRecent?: number } = {}) =>
    // the summary tier itself; the notes tier: session-notes.test.ts
    contextManager(repo.root, { gatesEnabled: ['tests_ran'], contextWindow: 20_000, protectRecent: 100, sessionNotes: false, ...extra });

  it('summary - keeps every failing gate and log path even when the model summary omits them', async () => {
    const ctx = await manager();
    const model = createScriptedModel([{ content: [text(LYING_SUMMARY)] }]);
    const hist = history(30);
    const res = await ctx.maybeCompact(hist, state, model);
    expect(res).toMatchObject({ kind: 'summary', ok: true });
    const after = contentOf(res?.messages ?? []);
    for (const g of state.gates.filter((x) => !x.passed)) expect(after).toContain(`FAILED ${g.name}: ${g.detail}`);
    for (const p of state.failingLogs) expect(after).toContain(p);
    expect(after).toContain('FAILING tests_passed, assertions_kept');
    expect(after).toContain('[~] make test/parser.test.ts pass');
    expect(after).toContain('Files edited so far: src/parser.ts');
    expect(after).toContain('None: all tests pass.');
    expect(after).toContain('authoritative');
    // the summary request: compaction prompt, no tools, the history as a plain transcript
    const req = model.requests[0];
    expect(req?.system[0]?.text).toBe(COMPACTION_SYSTEM_PROMPT);
    expect(req?.tools).toEqual([]);
    expect(JSON.stringify(req?.messages)).not.toContain('"tool_use"');
    expect(JSON.stringify(req?.messages)).toContain('[tool call Read] {\\"file_path\\":\\"src/file30.ts\\"}');
  });

  it('summary - a summary without any of the sections is accepted; the harness appends the failing and stale checks from its ledger', async () => {
    const ctx = await manager();
    const model = createScriptedModel([{ content: [text('I fixed it, everything passes now.')] }]);
    const ledger: CompactionState = {
      ...state,
      seq: 9,
      lastEditSeq: 6,
      checks: [
        { command: 'npm test', exitCode: 1, seq: 3, outputPath: 'runs/r1/tool-output/toolu_031.txt' },
        { command: 'npm run lint', exitCode: 0, seq: 4 },
        { command: 'ls src', exitCode: 0, seq: 5 },
        { command: 'npx tsc --noEmit', exitCode: 0, seq: 8 },
      ],
    };
    const res = await ctx.maybeCompact(history(30), ledger, model);
    expect(res).toMatchObject({ kind: 'summary', ok: true });
    expect(res?.detail ?? '').not.toMatch(/lacks|section/);
    const after = contentOf(res?.messages ?? []);
    expect(after).toContain('I fixed it, everything passes now.');
    expect(after).toContain('- FAILING `npm test`: exit 1, and files changed since (log: runs/r1/tool-output/toolu_031.txt)');
    expect(after).toContain('- NOT RE-RUN since the last edit `npm run lint`: it passed before files changed');
    expect(after).toContain('- passed after the last edit `npx tsc --noEmit`');
    expect(after).not.toContain('`ls src`');
    expect(after).toContain('Files edited so far: src/parser.ts');
    expect(after).toContain('Gate status: FAILING tests_passed, assertions_kept');
  });

  it('summary - the next request is smaller, the history stays valid, and the run can compact again', async () => {
    const ctx = await manager();
    const model = createScriptedModel([
      { content: [text(LYING_SUMMARY)] },
      { content: [text(LYING_SUMMARY.replace('Stop.', 'Rerun tests.'))] },
    ]);
    const hist = history(30);
    const res = await ctx.maybeCompact(hist, state, model);
    expect(res?.ok).toBe(true);
    const compacted = res?.messages ?? [];
    expect(validateHistory(compacted)).toBeUndefined();
    expect(compacted[0]?.role).toBe('user');
    expect(JSON.stringify(compacted[0])).toContain('Fix issue #12: the parser drops the last line.');
    expect(ctx.estimateTokens(ctx.prepare(compacted, facts(31)))).toBeLessThan(ctx.estimateTokens(ctx.prepare(hist, facts(31))) / 3);
    expect(res?.afterTokens).toBeLessThan(res?.beforeTokens ?? 0);

    // the run continues: more turns, then a second compaction does not stack the old summary
    const grown: Message[] = [...compacted];
    for (const m of history(30).slice(1)) grown.push(m);
    const again = await ctx.maybeCompact(grown, state, model);
    expect(again?.ok).toBe(true);
    const text2 = contentOf(again?.messages ?? []);
    expect(text2.match(/<compaction-summary>/g)).toHaveLength(1);
    expect(text2.match(/<harness-state>/g)).toHaveLength(1);
    expect(text2).toContain('Rerun tests.');
    expect(validateHistory(again?.messages ?? [])).toBeUndefined();
  });

  it('summary - a failing summary request leaves the history as it was with ok false', async () => {
    const ctx = await manager();
    const model = createScriptedModel([{ error: 'fatal', message: 'overloaded' }]);
    const hist = history(30);
    const res = await ctx.maybeCompact(hist, emptyState, model);
    expect(res).toMatchObject({ ok: false, kind: 'summary' });
    expect(res?.detail).toContain('overloaded');
    expect(res?.messages).toBe(hist);
  });

  it('maybeCompact - does nothing below the thresholds', async () => {
    const ctx = await manager();
    const model = createScriptedModel([]);
    expect(await ctx.maybeCompact(history(5), emptyState, model)).toBeUndefined();
    expect(model.requests).toHaveLength(0);
  });

  it('maybeCompact - clears old tool results first when that is enough (no model call)', async () => {
    const ctx = await manager({ protectRecent: 3 });
    const model = createScriptedModel([]);
    const hist = history(30);
    const res = await ctx.maybeCompact(hist, emptyState, model);
    expect(res).toMatchObject({ kind: 'microcompact', ok: true });
    expect(res?.afterTokens).toBeLessThan(7_000);
    expect(model.requests).toHaveLength(0);
    expect(validateHistory(res?.messages ?? [])).toBeUndefined();
    // the next request marks the last user turn before the first cleared result (its prefix is cached)
    const sent = ctx.prepare(res?.messages ?? [], facts(31));
    const marks = sent.flatMap((m, i) => (typeof m.content !== 'string' && m.content.some((b) => 'cache_control' in b) ? [i] : []));
    expect(marks).toEqual([0, sent.length - 1]);
    // later requests go back to the previous-turn breakpoint
    const later = ctx.prepare(res?.messages ?? [], facts(32));
    const marks2 = later.flatMap((m, i) => (typeof m.content !== 'string' && m.content.some((b) => 'cache_control' in b) ? [i] : []));
    expect(marks2).toEqual([later.length - 3, later.length - 1]);
    expect(JSON.stringify(hist)).toBe(JSON.stringify(history(30)));
  });

  it('maybeCompact - skips a microcompact that would not buy enough headroom (no cache thrash)', async () => {
    const ctx = await manager({ protectRecent: 12 });
    const model = createScriptedModel([]);
    const size = ctx.estimateTokens(history(16));
    expect(size).toBeGreaterThan(10_000); // past the microcompact threshold (0.5 × 20k)
    expect(size).toBeLessThan(15_000); // below the summary threshold (0.75 × 20k)
    expect(await ctx.maybeCompact(history(16), emptyState, model)).toBeUndefined();
    expect(model.requests).toHaveLength(0);
  });

  it('forceCompact - clears all but the last two results, then summarises', async () => {
    const ctx = await manager({ protectRecent: 6 });
    const model = createScriptedModel([{ content: [text(LYING_SUMMARY)] }]);
    const res = await ctx.forceCompact(history(8), state, model);
    expect(res).toMatchObject({ kind: 'summary', ok: true });
    const transcript = JSON.stringify(model.requests[0]?.messages);
    expect(transcript.split(STUB_PREFIX.replace('[', '')).length - 1).toBe(6);
    for (const p of state.failingLogs) expect(contentOf(res.messages)).toContain(p);
  });

  it('breaker - three failed compactions in a row stop the run; a success resets the count', () => {
    const breaker = createCompactionBreaker();
    expect(breaker.record({ ok: false })).toBe(false);
    expect(breaker.record({ ok: false })).toBe(false);
    expect(breaker.record({ ok: true })).toBe(false);
    expect(breaker.record({ ok: false })).toBe(false);
    expect(breaker.record({ ok: false })).toBe(false);
    expect(breaker.record({ ok: false })).toBe(true);
    expect(breaker.failures).toBe(3);
  });
});

describe('validateHistory', () => {
  it('validateHistory - finds a tool_use without its result and a stray result', () => {
    const hist = history(2);
    expect(validateHistory(hist)).toBeUndefined();
    expect(validateHistory([...hist.slice(0, 2), { role: 'user', content: 'hi' }])).toMatch(/toolu_001 .* has no tool_result/);
    expect(validateHistory([hist[0] as Message, hist[2] as Message])).toMatch(/both user/);
    expect(validateHistory([hist[0] as Message, hist[1] as Message, hist[4] as Message])).toMatch(/answers no tool_use/);
  });
});
