/**
 * The tiers of compaction, cheapest first (seed 003 §3): old tool results cleared when the prompt cache
 * expired anyway (tier 1), the harness's session notes in place of a summary (tier 2), the model's summary
 * with the files and skills re-mounted (tier 3). Each returns a CompactionResult whose totals are judged
 * against the history as it was before any clearing.
 */
import type { Logger } from 'pino';
import type { Message, ModelClient } from '../../model/model-client.js';
import type { CompactionResult, CompactionState } from './types.js';
import type { MicrocompactResult } from './microcompact.js';
import { summarize, type SummaryOptions } from './compaction.js';
import { renderLoadedSkills, renderRemount, withRemount } from './remount.js';
import type { SessionNotes } from './session-notes.js';
import { compactWithNotes } from './notes-compaction.js';
import type { CacheClock } from './time-clear.js';

/** What the tiers need of the manager's options. */
export interface TierOptions {
  root: string;
  testCommand?: string;
  sessionNotes?: boolean;
  beforeSummary?: () => Promise<void>;
}

/** A notes compaction is taken only when it leaves the context below this fraction of the summary threshold. */
export const NOTES_HEADROOM = 0.6;

/**
 * Totals against the history as it was before any clearing: a rebuilt history is a compaction when it
 * is smaller than that (not than the microcompacted copy the summary was written from).
 */
export function withTotals(r: CompactionResult, before: number, original: Message[], total: (m: Message[]) => number): CompactionResult {
  if (!r.ok) return { ...r, messages: original, beforeTokens: before, afterTokens: before };
  const after = total(r.messages);
  if (after < before) return { ...r, beforeTokens: before, afterTokens: after };
  const detail = `${r.detail ?? ''}; the rebuilt history is not smaller (${after} of ${before} tokens)`;
  return { ...r, messages: original, ok: false, beforeTokens: before, afterTokens: before, detail };
}

/** A failed summary after old tool results were cleared: the clearing alone is the compaction (the history changed, smaller). */
export function orCleared(res: CompactionResult, micro: MicrocompactResult, before: number): CompactionResult {
  if (res.ok || micro.cleared === 0) return res;
  return cleared(micro, before, `cleared ${micro.cleared} old tool results (the summary failed: ${res.detail ?? 'no detail'})`);
}

/** A microcompact as the compaction: old tool results cleared. */
export function cleared(micro: MicrocompactResult, before: number, detail: string): CompactionResult {
  return {
    messages: micro.messages,
    kind: 'microcompact',
    beforeTokens: before,
    afterTokens: before - micro.savedTokens,
    ok: true,
    detail,
  };
}

/** A summary, then the files edited last re-mounted with their current text (read from the worktree). */
export async function summarizeAndRemount(
  root: string,
  messages: Message[],
  state: CompactionState,
  client: ModelClient,
  opts: SummaryOptions,
  original: Message[],
): Promise<CompactionResult> {
  const res = await summarize(messages, state, client, opts);
  if (!res.ok) return res;
  const files = withRemount(res.messages, await renderRemount(root, state));
  return { ...res, messages: withRemount(files, renderLoadedSkills(original)) };
}

/** What the summary-threshold tiers share, built once per manager. */
export interface Tiers {
  opts: TierOptions;
  summaryOpts: SummaryOptions;
  notes: SessionNotes;
  summaryAt: number;
  total: (m: Message[]) => number;
  log: Logger;
}

/**
 * Tier 2: the session notes instead of a summary, when they are substantive and buy real headroom
 * (below NOTES_HEADROOM of the threshold); undefined (go on to the summary) otherwise.
 */
async function notesTier(t: Tiers, micro: MicrocompactResult, original: Message[], state: CompactionState, before: number) {
  if (t.opts.sessionNotes === false) return undefined;
  const rebuilt = await compactWithNotes({
    root: t.opts.root,
    messages: micro.messages,
    original,
    state,
    notes: t.notes,
    keepRecentTokens: t.summaryOpts.keepRecentTokens,
    ...(t.opts.testCommand ? { testCommand: t.opts.testCommand } : {}),
  });
  if (!rebuilt) return undefined;
  const res = withTotals(rebuilt, before, original, t.total);
  const limit = t.summaryAt * NOTES_HEADROOM;
  t.log.info({ before, after: res.afterTokens, ok: res.ok, limit: Math.round(limit) }, 'session notes compaction');
  return res.ok && res.afterTokens <= limit ? res : undefined;
}

/** Tiers 2 and 3 at the summary threshold: the session notes when they are enough, else the model's summary. */
export async function compactAtThreshold(
  t: Tiers,
  messages: Message[],
  micro: MicrocompactResult,
  state: CompactionState,
  client: ModelClient,
  before: number,
): Promise<CompactionResult> {
  await t.opts.beforeSummary?.();
  const byNotes = await notesTier(t, micro, messages, state, before);
  if (byNotes) return byNotes;
  const summary = withTotals(
    await summarizeAndRemount(t.opts.root, micro.messages, state, client, t.summaryOpts, messages),
    before,
    messages,
    t.total,
  );
  if (summary.ok && summary.afterTokens >= t.summaryAt) return stillAbove(summary, messages, before, t.summaryAt);
  const res = orCleared(summary, micro, before);
  t.log.info({ before, after: res.afterTokens, ok: res.ok, detail: res.detail }, 'summary compaction');
  return res;
}

/** Tier 1 (cheapest): the prompt cache expired since the last request, so old tool results are cleared now. */
export function clearedAfterExpiry(clock: CacheClock, messages: Message[], before: number, log: Logger): CompactionResult | undefined {
  const expired = clock.clearIfExpired(messages);
  if (!expired) return undefined;
  const idle = Math.round(expired.idleMs / 1000);
  log.info({ before, cleared: expired.micro.cleared, idle }, 'time-based clearing');
  return cleared(
    expired.micro,
    before,
    `cache expired (${idle}s since the last request): cleared ${expired.micro.cleared} old tool results`,
  );
}

/** A summary that left the history above the threshold: not taken, the history stays as it was. */
function stillAbove(summary: CompactionResult, messages: Message[], before: number, summaryAt: number): CompactionResult {
  return {
    ...summary,
    messages,
    afterTokens: before,
    ok: false,
    detail: `${summary.detail ?? ''}; still above the threshold (${summary.afterTokens} of ${Math.round(summaryAt)} tokens)`,
  };
}
