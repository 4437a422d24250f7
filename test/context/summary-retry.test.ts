/**
 * The summary request and what counts as a compaction: prompt-too-long on the summary request drops the
 * oldest rounds (by the token gap, else a quarter; at most SUMMARY_PTL_RETRIES), a forced compaction is
 * judged against the history before clearing, and any summary text (even none) is accepted.
 */
import { describe, expect, it } from '@jest/globals';
import { COMPACTION_SYSTEM_PROMPT, SUMMARY_PTL_RETRIES, roundsToDrop, tokenGap } from '../../src/agent/context/compaction.js';
import { renderRounds } from '../../src/agent/context/transcript.js';
import { estimateTokens } from '../../src/agent/context/estimate.js';
import { microcompact } from '../../src/agent/context/microcompact.js';
import { validateHistory } from '../../src/agent/context/validate-history.js';
import type { ModelRequest } from '../../src/model/model-client.js';
import { createScriptedModel, text } from '../../src/model/scripted.js';
import { contextManager, emptyState, history, useFixtureRepo } from './helpers.js';

const transcriptOf = (r: ModelRequest | undefined): string => String(r?.messages[0]?.content);
const ptl = (message = 'prompt is too long') => ({ error: 'prompt_too_long' as const, message });

describe('summary request prompt-too-long', () => {
  const repo = useFixtureRepo();

  const manager = (contextWindow = 200_000) =>
    // The summary tier itself (the session-notes tier would stand in for it): session-notes.test.ts.
    contextManager(repo.root, { gatesEnabled: ['tests_ran'], contextWindow, sessionNotes: false });

  it('tokenGap - reads the overflow from the API message; undefined when it does not say', () => {
    expect(tokenGap('prompt is too long: 215,012 tokens > 200,000 maximum')).toBe(15_012);
    expect(tokenGap('prompt is too long: 200001 tokens > 200000 maximum')).toBe(1);
    expect(tokenGap('prompt is too long')).toBeUndefined();
    expect(tokenGap('input length and max_tokens exceed context limit: 190000 + 16000 > 200000')).toBeUndefined();
  });

  it('renderRounds / roundsToDrop - rounds are dropped whole, oldest first, enough to cover the gap', () => {
    const hist = history(6, 1000);
    const all = renderRounds(hist, 1_000_000);
    expect(all).toMatchObject({ rounds: 6, total: 6 });
    expect(all.sizes).toHaveLength(6);
    const twoRounds = (all.sizes[0] ?? 0) + (all.sizes[1] ?? 0);
    expect(roundsToDrop(all, Math.floor(twoRounds / 4))).toBe(2);
    expect(roundsToDrop(all, 1)).toBe(1);
    expect(roundsToDrop(all, undefined)).toBe(2); // a quarter of 6, rounded up
    const fewer = renderRounds(hist, 1_000_000, 2);
    expect(fewer.rounds).toBe(4);
    expect(fewer.text).toContain('[… 2 earlier rounds omitted to fit …]');
    expect(fewer.text).not.toContain('src/file2.ts');
    expect(fewer.text).toContain('src/file3.ts');
    expect(fewer.text.startsWith('[user] Fix issue #12')).toBe(true);
  });

  it('forceCompact - a summary request too long every time gives up after the retries; the clearing stands as the compaction', async () => {
    const ctx = await manager();
    const model = createScriptedModel([ptl(), ptl(), ptl(), ptl(), ptl()]);
    const hist = history(12, 4000);
    const res = await ctx.forceCompact(hist, emptyState, model);
    expect(model.requests).toHaveLength(SUMMARY_PTL_RETRIES + 1);
    expect(model.requests.every((r) => r.system[0]?.text === COMPACTION_SYSTEM_PROMPT)).toBe(true);
    const sizes = model.requests.map((r) => transcriptOf(r).length);
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeLessThan(sizes[i - 1] ?? 0);
    expect(res).toMatchObject({ kind: 'microcompact', ok: true });
    expect(res.detail).toMatch(/summary failed: summary request failed \(after 3 retries without the oldest rounds\): prompt is too long/);
    expect(res.afterTokens).toBeLessThan(res.beforeTokens);
    expect(validateHistory(res.messages)).toBeUndefined();
  });

  it('maybeCompact - another model error on the summary request is not retried', async () => {
    const ctx = await manager(20_000);
    const model = createScriptedModel([{ error: 'fatal', message: 'overloaded' }]);
    const res = await ctx.maybeCompact(history(30), emptyState, model);
    expect(model.requests).toHaveLength(1);
    expect(res?.detail).toContain('summary request failed: overloaded');
  });

  it('forceCompact - judged against the history before clearing: a long free-form summary after heavy clearing still counts', async () => {
    const ctx = await manager();
    // 8 results of 20 KB: clearing 6 leaves about a quarter; the summary (30 KB of prose, no headings) is
    // bigger than the cleared copy's savings would allow if judged against it, smaller than the history.
    const summary = `Worked through the parser. ${'Notes on what was tried and why. '.repeat(900)}`;
    const model = createScriptedModel([{ content: [text(summary)] }]);
    const hist = history(8, 20_000);
    const res = await ctx.forceCompact(hist, emptyState, model);
    expect(res).toMatchObject({ kind: 'summary', ok: true });
    expect(res.afterTokens).toBeLessThan(res.beforeTokens);
    // the case that used to fail: the rebuilt history is bigger than the cleared copy it was written from
    expect(estimateTokens(res.messages)).toBeGreaterThan(estimateTokens(microcompact(hist, { protectRecent: 2 }).messages));
    expect(JSON.stringify(res.messages)).toContain('Worked through the parser.');
    expect(res.detail ?? '').not.toMatch(/section/);
  });

  it('summary - an empty summary is accepted: the harness facts stand alone', async () => {
    const ctx = await manager(20_000);
    const model = createScriptedModel([{ content: [] }]);
    const res = await ctx.maybeCompact(history(30), emptyState, model);
    expect(res).toMatchObject({ kind: 'summary', ok: true });
    expect(res?.detail).toContain('empty summary');
    expect(JSON.stringify(res?.messages)).toContain('The model wrote no summary');
    expect(JSON.stringify(res?.messages)).toContain('<harness-state>');
  });
});
