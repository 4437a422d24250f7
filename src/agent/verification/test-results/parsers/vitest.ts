import { counts, numberedWords, type SummaryMatch } from './types.js';

/**
 * Vitest: `      Tests  1 failed | 3 passed | 1 skipped | 1 todo (6)` (the number in brackets is the total),
 * `      Tests  no tests` and `No test files found, exiting with code 1` are 0-test runs.
 */
export function parseVitestSummary(lines: readonly string[]): SummaryMatch | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? '';
    const m = /^\s*Tests\s{2,}(.*?)\s*\((\d+)\)\s*$/.exec(line);
    if (m && /\d+ (passed|failed|skipped|todo)/.test(m[1] ?? '')) {
      const w = numberedWords(m[1] ?? '');
      // `1 expected fail` (an `it.fails` test that failed, as marked) is never a pass: skipped.
      const skipped = (w.get('skipped') ?? 0) + (w.get('todo') ?? 0) + (w.get('expected') ?? 0);
      return { counts: counts(w.get('passed') ?? 0, w.get('failed') ?? 0, skipped, Number(m[2])), line: i };
    }
    if (/^\s*Tests\s{2,}no tests\s*$/.test(line) || /^\s*No test files found, exiting with code \d+/.test(line)) {
      return { counts: counts(0, 0, 0), line: i };
    }
  }
  return undefined;
}
