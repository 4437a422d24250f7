import { counts, type SummaryMatch } from './types.js';

/** One summary block from the `N passing (8ms)` line at `i`: its counts and its last line. */
function blockAt(lines: readonly string[], i: number, passing: number): SummaryMatch {
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
  return { counts: counts(passing, failed, pending), line: last };
}

/**
 * Mocha's spec reporter: `  2 passing (8ms)`, then optional `  1 pending` and `  1 failing` lines. The
 * last block counts; with `calls` mocha calls in the command (the count check), the last `calls` blocks
 * are summed.
 */
export function parseMochaSummary(lines: readonly string[], calls = 1): SummaryMatch | undefined {
  const blocks: SummaryMatch[] = [];
  for (let i = lines.length - 1; i >= 0 && blocks.length < calls; i--) {
    const m = /^\s*(\d+) passing \([^)]*\)\s*$/.exec(lines[i] ?? '');
    if (m) blocks.push(blockAt(lines, i, Number(m[1])));
  }
  const [first] = blocks;
  if (!first) return undefined;
  const sum = (k: 'passed' | 'failed' | 'skipped') => blocks.reduce((s, b) => s + b.counts[k], 0);
  return { counts: counts(sum('passed'), sum('failed'), sum('skipped')), line: first.line };
}
