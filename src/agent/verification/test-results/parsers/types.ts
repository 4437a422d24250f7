import type { TestCounts } from '../../../events.js';

/** A summary parser's answer: the counts and the index of the last line it read them from. */
export interface SummaryMatch {
  counts: TestCounts;
  line: number;
}

/** Reads one runner's summary lines (ANSI colours already stripped). Undefined when its format is absent. */
export type SummaryParser = (lines: readonly string[]) => SummaryMatch | undefined;

export function counts(passed: number, failed: number, skipped: number, total = passed + failed + skipped): TestCounts {
  return { passed, failed, skipped, total };
}

/** "4 passed, 1 failed" style pairs → { passed: 4, failed: 1 }; unknown words are kept as they are. */
export function numberedWords(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(/(\d+)\s+([A-Za-z]+)/g)) {
    const word = (m[2] ?? '').toLowerCase();
    out.set(word, (out.get(word) ?? 0) + Number(m[1]));
  }
  return out;
}
