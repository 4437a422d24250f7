import { counts, numberedWords, type SummaryMatch } from './types.js';

/**
 * Jest: `Tests:       1 failed, 1 skipped, 1 todo, 4 passed, 7 total`. Tests filtered out by
 * --testNamePattern are reported as skipped. "No tests found" (no file matched) is a 0-test run.
 */
export function parseJestSummary(lines: readonly string[]): SummaryMatch | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? '';
    const m = /^\s*Tests:\s+(.*\d+ total)\s*$/.exec(line);
    if (m) {
      const w = numberedWords(m[1] ?? '');
      const skipped = (w.get('skipped') ?? 0) + (w.get('todo') ?? 0) + (w.get('pending') ?? 0);
      return { counts: counts(w.get('passed') ?? 0, w.get('failed') ?? 0, skipped, w.get('total') ?? 0), line: i };
    }
    if (/^\s*No tests found, exiting with code \d+/.test(line)) return { counts: counts(0, 0, 0), line: i };
  }
  return undefined;
}
