/**
 * Thrash breaker helper for the loop: three failed compactions in a row end the run (aborted).
 * A successful compaction resets the count.
 */
import { LIMITS } from '../recovery.js';
import type { CompactionResult } from './types.js';

export interface CompactionBreaker {
  /** Records a compaction; true when the run must stop. */
  record(result: Pick<CompactionResult, 'ok'>): boolean;
  readonly failures: number;
}

export function createCompactionBreaker(limit: number = LIMITS.compactionFailures): CompactionBreaker {
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
