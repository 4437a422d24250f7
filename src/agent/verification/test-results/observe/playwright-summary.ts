import { counts, type SummaryMatch } from '../parsers/types.js';

const COUNT_LINE = /^\s*(\d+) (passed|failed|flaky|skipped|interrupted|did not run)(?:\s+\([^)]*\))?\s*$/;
/** A test named under a count line (`[chromium] › a.spec.ts:3:1 › title`). */
const DETAIL_LINE = /^\s+\S.*›/;

/**
 * playwright's closing block (list, line and dot reporters): `N failed` / `N flaky` / `N skipped` /
 * `N did not run` / `N interrupted` / `N passed (time)`, failed and flaky lines each followed by the
 * tests they name. Read only when the node observer saw playwright start (count-calls.ts), so a
 * stray "3 passed" line elsewhere is not read as a playwright run. Flaky tests passed on a retry.
 */
export function parsePlaywrightSummary(lines: readonly string[]): SummaryMatch | undefined {
  let end = lines.length - 1;
  while (end >= 0 && !COUNT_LINE.test(lines[end] ?? '')) end--;
  if (end < 0) return undefined;
  const v = new Map<string, number>();
  for (let i = end; i >= 0; i--) {
    const line = lines[i] ?? '';
    const m = COUNT_LINE.exec(line);
    if (m) v.set(m[2] ?? '', (v.get(m[2] ?? '') ?? 0) + Number(m[1]));
    else if (!DETAIL_LINE.test(line)) break;
  }
  const passed = (v.get('passed') ?? 0) + (v.get('flaky') ?? 0);
  const failed = (v.get('failed') ?? 0) + (v.get('interrupted') ?? 0);
  const skipped = (v.get('skipped') ?? 0) + (v.get('did not run') ?? 0);
  return { counts: counts(passed, failed, skipped), line: end };
}
