import { counts, numberedWords, type SummaryMatch } from './types.js';

const WORDS = 'passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun|subtests passed|subtests failed';
const SUMMARY = new RegExp(`^=*\\s*((?:\\d+ (?:${WORDS})(?:, )?)+) in [\\d.]+s(?: \\([^)]*\\))?\\s*=*\\s*$`);

/**
 * pytest's last line: `==== 1 failed, 4 passed, 1 skipped, 1 xfailed in 1.55s ====` (or without the
 * `=` rule under -q). errors count as failed, xfailed and xpassed as skipped (an expected failure is never a
 * pass, whether it failed or not: strict=False lets an xpassed test through); deselected tests
 * are not part of the run (`7 deselected in 1.3s` and `no tests ran in 1.4s` are 0-test runs).
 */
export function parsePytestSummary(lines: readonly string[]): SummaryMatch | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? '';
    if (/^=*\s*no tests ran in [\d.]+s\b.*$/.test(line)) return { counts: counts(0, 0, 0), line: i };
    const m = SUMMARY.exec(line);
    if (!m) continue;
    const w = numberedWords(m[1] ?? '');
    const passed = w.get('passed') ?? 0;
    const failed = (w.get('failed') ?? 0) + (w.get('error') ?? 0) + (w.get('errors') ?? 0);
    const skipped = (w.get('skipped') ?? 0) + (w.get('xfailed') ?? 0) + (w.get('xpassed') ?? 0);
    return { counts: counts(passed, failed, skipped), line: i };
  }
  return undefined;
}
