import { counts, type SummaryMatch } from './types.js';

/**
 * unittest's summary: `Ran 12 tests in 0.003s`, then `OK`, `OK (skipped=2, expected failures=1)` or
 * `FAILED (failures=1, errors=2, skipped=1, unexpected successes=1)`. errors and unexpected successes
 * count as failed, expected failures as passed; `Ran N` includes the skipped ones.
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
    const n = (name: string): number => Number(new RegExp(`${name}=(\\d+)`).exec(verdict[2] ?? '')?.[1] ?? 0);
    const failed = n('failures') + n('errors') + n('unexpected successes');
    const skipped = n('skipped');
    return { counts: counts(Math.max(0, total - failed - skipped), failed, skipped, total), line: at };
  }
  return undefined;
}
