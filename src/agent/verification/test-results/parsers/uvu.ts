import { counts, type SummaryMatch } from './types.js';

const TOTAL = /^\s*Total:\s+(\d+)\s*$/;
const PASSED = /^\s*Passed:\s+(\d+)\s*$/;
const SKIPPED = /^\s*Skipped:\s+(\d+)\s*$/;

/**
 * uvu: each process that ran tests closes with `  Total:     5` / `  Passed:    4` / `  Skipped:   1` /
 * `  Duration:  1.68ms` (Total counts the tests that ran, skipped ones apart; failed = Total − Passed).
 * A command that runs several uvu processes (`node test/a.js && node test/b.js`) prints one block
 * each: they are summed.
 */
export function parseUvuSummary(lines: readonly string[]): SummaryMatch | undefined {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let last = -1;
  for (let i = 0; i + 2 < lines.length; i++) {
    const t = TOTAL.exec(lines[i] ?? '');
    const p = t && PASSED.exec(lines[i + 1] ?? '');
    const s = p && SKIPPED.exec(lines[i + 2] ?? '');
    if (!t || !p || !s) continue;
    const total = Number(t[1]);
    passed += Number(p[1]);
    failed += Math.max(0, total - Number(p[1]));
    skipped += Number(s[1]);
    last = i + 2;
  }
  return last < 0 ? undefined : { counts: counts(passed, failed, skipped), line: last };
}
