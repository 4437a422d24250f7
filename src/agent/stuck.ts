/**
 * Stuck detection: the same tool call (name + input) with the same result several times in a row means
 * no progress. Three in a row → 'nudge' (the loop tells the model), five → 'abort' (reason: no progress).
 */
import { createHash } from 'node:crypto';
import { LIMITS } from './recovery.js';

export type StuckSignal = 'ok' | 'nudge' | 'abort';

export interface StuckDetector {
  observe(toolName: string, input: unknown, resultText: string): StuckSignal;
  /** How many times in a row the latest call repeated (1 = new). */
  readonly streak: number;
  reset(): void;
}

export interface StuckOptions {
  nudgeAt?: number;
  abortAt?: number;
}

/** JSON with sorted keys, so {a,b} and {b,a} are the same call. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

export function createStuckDetector(opts: StuckOptions = {}): StuckDetector {
  const nudgeAt = opts.nudgeAt ?? LIMITS.stuckNudge;
  const abortAt = opts.abortAt ?? LIMITS.stuckAbort;
  let last = '';
  let streak = 0;
  return {
    observe(toolName, input, resultText) {
      const key = createHash('sha256').update(toolName).update('\0').update(stable(input)).update('\0').update(resultText).digest('hex');
      streak = key === last ? streak + 1 : 1;
      last = key;
      if (streak >= abortAt) return 'abort';
      if (streak >= nudgeAt) return 'nudge';
      return 'ok';
    },
    get streak() {
      return streak;
    },
    reset() {
      last = '';
      streak = 0;
    },
  };
}
