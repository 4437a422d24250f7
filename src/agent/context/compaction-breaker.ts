/**
 * Thrash breaker helper for the loop: three failed compactions in a row end the run (aborted).
 * A successful compaction resets the count.
 */
import type { CompactionResult } from './types.js';

export const MAX_FAILED_COMPACTIONS = 3;

export interface CompactionBreaker {
  /** Records a compaction; true when the run must stop. */
  record(result: Pick<CompactionResult, 'ok'>): boolean;
  readonly failures: number;
}

export function createCompactionBreaker(limit: number = MAX_FAILED_COMPACTIONS): CompactionBreaker {
  let failures = 0;
  return {
    record(result) {
      failures = result.ok ? 0 : failures + 1;
      return failures >= limit;
    },
    get failures() {
      return failures;
    },
  };
}
