/** Bounds and messages for the loop's recovery paths (seed 001 §11). */
export const LIMITS = {
  /** max_tokens continuations in a row. */
  continuations: 3,
  /** prompt-too-long → compact → retry, per run. */
  promptTooLong: 3,
  /** compactions failing in a row (thrash breaker). */
  compactionFailures: 3,
  /** a stream that broke after it started, retried as a whole turn. */
  brokenStreams: 3,
  /** the same call with the same result this many times in a row: the model is told to change course. */
  stuckNudge: 3,
  /** the same call with the same result this many times ends the run. */
  stuckAbort: 5,
} as const;

export const CONTINUE_MESSAGE =
  'Your last message was cut off at the output limit. Continue exactly where you stopped; do not restart or repeat what you already wrote. If you were about to call a tool, call it again in full.';

export function noGateMessage(): string {
  return 'The harness could not confirm the work yet. Run the tests and make them pass before you stop.';
}

/** Exponential backoff with jitter for broken-stream retries: base, 2×base, 4×base … capped at 30 s. */
export function backoffMs(attempt: number, baseMs = 1000): number {
  const raw = Math.min(30000, baseMs * 2 ** (attempt - 1));
  return raw === 0 ? 0 : Math.round(raw * (0.75 + Math.random() * 0.5));
}
