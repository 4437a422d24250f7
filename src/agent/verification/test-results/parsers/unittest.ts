import { counts, type SummaryMatch } from './types.js';

/**
 * unittest's summary: `Ran 12 tests in 0.003s`, then `OK`, `OK (skipped=2, expected failures=1)` or
 * `FAILED (failures=1, errors=2, skipped=1, unexpected successes=1)`. errors and unexpected successes
 * count as failed, expected failures as skipped (never a pass: the test failed as it was marked to, as
 * pytest's xfail is skipped); `Ran N` includes them.
 */
export function parseUnittestSummary(lines: readonly string[]): SummaryMatch | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const ran = /^Ran (\d+) tests? in [\d.]+s\s*$/.exec(lines[i] ?? '');
    if (!ran) continue;
    const total = Number(ran[1]);
    let at = i + 1;
    while (at < lines.length && (lines[at] ?? '').trim() === '') at++;
    const verdict = /^(OK|FAILED)\b(?:\s*\((.*)\))?\s*$/.exec(lines[at] ?? '');
    if (!verdict) continue;
    // `failures=1, expected failures=2`: read as key=value pairs, so one name is never found inside another.
    const pairs = new Map<string, string>(
      (verdict[2] ?? '').split(',').map((p): [string, string] => {
        const [k = '', v = ''] = p.trim().split('=');
        return [k, v];
      }),
    );
    const n = (name: string): number => Number(pairs.get(name) ?? 0) || 0;
    const failed = n('failures') + n('errors') + n('unexpected successes');
    const skipped = n('skipped') + n('expected failures');
    return { counts: counts(Math.max(0, total - failed - skipped), failed, skipped, total), line: at };
  }
  return undefined;
}
