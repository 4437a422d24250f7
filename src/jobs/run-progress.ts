/**
 * The progress event a worker sends when a run ends: its verdict and, from its evidence, the totals the
 * metrics count (tokens by kind, cost, the gates that failed). Every host's worker and both queue
 * back-ends carry this one event to `Metrics.observeProgress`.
 */
import { readFile } from 'node:fs/promises';
import type { Evidence } from '../agent/evidence/types.js';
import type { JobProgress } from './queue.js';

export function finishedProgress(verdict: string, evidence?: Pick<Evidence, 'usage' | 'gates'>): JobProgress {
  if (!evidence) return { phase: 'done', verdict };
  const u = evidence.usage;
  return {
    phase: 'done',
    verdict,
    tokens: { input: u.inputTokens, output: u.outputTokens, cache_read: u.cacheReadTokens, cache_write: u.cacheWriteTokens },
    costUsd: u.costUsd,
    failedGates: evidence.gates.filter((g) => !g.passed).map((g) => g.name),
  };
}

/** The evidence.json a run left (a sweep's outcome names it), or undefined when there is none. */
export async function readEvidence(path: string | undefined): Promise<Evidence | undefined> {
  if (!path) return undefined;
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Evidence;
  } catch {
    return undefined;
  }
}
