import { counts, type SummaryMatch } from './types.js';

/** Mocha's spec reporter: `  2 passing (8ms)`, then optional `  1 pending` and `  1 failing` lines. */
export function parseMochaSummary(lines: readonly string[]): SummaryMatch | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const m = /^\s*(\d+) passing \([^)]*\)\s*$/.exec(lines[i] ?? '');
    if (!m) continue;
    let failed = 0;
    let pending = 0;
    let last = i;
    for (let j = i + 1; j < lines.length && j < i + 4; j++) {
      const f = /^\s*(\d+) (failing|pending)\s*$/.exec(lines[j] ?? '');
      if (!f) continue;
      if (f[2] === 'failing') failed = Number(f[1]);
      else pending = Number(f[1]);
      last = j;
    }
    return { counts: counts(Number(m[1]), failed, pending), line: last };
  }
  return undefined;
}
