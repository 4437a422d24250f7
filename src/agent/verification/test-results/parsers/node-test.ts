import { counts, type SummaryMatch } from './types.js';

/**
 * `node --test` with the spec reporter (the default on a terminal):
 * `ℹ tests 7` / `ℹ pass 4` / `ℹ fail 1` / `ℹ cancelled 0` / `ℹ skipped 1` / `ℹ todo 1`.
 * Cancelled tests count as failed; todo as skipped. (Its TAP reporter is read by the tap parser.)
 */
export function parseNodeTestSummary(lines: readonly string[]): SummaryMatch | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!/^\s*ℹ tests \d+\s*$/.test(lines[i] ?? '')) continue;
    const v = new Map<string, number>();
    let last = i;
    for (let j = i; j < lines.length && j < i + 12; j++) {
      const m = /^\s*ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ([\d.]+)\s*$/.exec(lines[j] ?? '');
      if (!m) break;
      v.set(m[1] ?? '', Number(m[2]));
      last = j;
    }
    const failed = (v.get('fail') ?? 0) + (v.get('cancelled') ?? 0);
    const skipped = (v.get('skipped') ?? 0) + (v.get('todo') ?? 0);
    return { counts: counts(v.get('pass') ?? 0, failed, skipped, v.get('tests') ?? 0), line: last };
  }
  return undefined;
}
