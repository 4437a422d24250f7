import type { CountCheck, TestCounts } from '../../../events.js';
import { parseCargoSummary } from '../parsers/cargo.js';
import { parseMochaSummary } from '../parsers/mocha.js';
import { parseTapTotals } from '../parsers/tap-totals.js';
import { parseUvuSummary } from '../parsers/uvu.js';
import type { SummaryMatch } from '../parsers/types.js';
import type { ObservedCall } from './collect-observed.js';

/**
 * cargo's summary, when every test binary that started printed one: a binary that died mid-run (an
 * abort, a stack overflow) prints its `running N tests` and the tests before the crash but no `test
 * result:` line, so its summary lines cover less than what ran, and there is nothing to hold the count
 * against (the run fails on its exit code).
 */
function cargoSummary(lines: readonly string[]): SummaryMatch | undefined {
  const started = lines.filter((l) => /^running \d+ tests?\s*$/.test(l)).length;
  const ended = lines.filter((l) => /^\s*test result: /.test(l)).length;
  return started === ended ? parseCargoSummary(lines) : undefined;
}

/**
 * The runners whose own closing summary a count is held against, each with the reader of that summary
 * given the output's lines and how many calls of the runner the command made: mocha's `N passing`
 * blocks (the last one per call), node-tap's `# { total }` line (the last one per call), cargo's
 * `test result:` lines (every one, summed over unit, integration and doc-test targets), uvu's
 * `Total/Passed/Skipped` blocks (every one, summed).
 */
const SUMMARIES: Readonly<Record<string, (lines: readonly string[], calls: number) => SummaryMatch | undefined>> = {
  mocha: parseMochaSummary,
  'node-tap': parseTapTotals,
  cargo: cargoSummary,
  uvu: (lines) => parseUvuSummary(lines),
};

const same = (a: TestCounts, b: TestCounts): boolean => a.passed === b.passed && a.failed === b.failed && a.skipped === b.skipped;

function sumOf(calls: readonly ObservedCall[]): TestCounts {
  const c: TestCounts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  for (const x of calls) {
    c.passed += x.counts.passed;
    c.failed += x.counts.failed;
    c.skipped += x.counts.skipped;
    c.total += x.counts.total;
  }
  return c;
}

/**
 * Each counted runner's count beside its own printed summary (for the runners SUMMARIES names, when the
 * output holds one): `agree` when passed, failed and skipped are equal. `lines` are the output's lines,
 * colours stripped, stdout and stderr apart (not interleaved).
 */
export function checkCounts(calls: readonly ObservedCall[], lines: readonly string[]): CountCheck[] {
  const out: CountCheck[] = [];
  for (const runner of [...new Set(calls.map((c) => c.runner))]) {
    const read = SUMMARIES[runner];
    if (!read) continue;
    const mine = calls.filter((c) => c.runner === runner);
    const printed = read(lines, mine.length);
    if (!printed) continue;
    const counted = sumOf(mine);
    const summary = { ...printed.counts, total: printed.counts.passed + printed.counts.failed + printed.counts.skipped };
    out.push({ runner, counted, summary, agree: same(counted, summary) });
  }
  return out;
}

const said = (c: TestCounts): string => `${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`;

/** The note of a disagreement: both counts, and why neither is used. */
export function disagreementNote(checks: readonly CountCheck[]): string | undefined {
  const bad = checks.filter((c) => !c.agree);
  if (bad.length === 0) return undefined;
  const each = bad.map((c) => `${c.runner} was counted ${said(c.counted)} but its own summary says ${said(c.summary)}`).join('; ');
  return `${each}: the count is not trusted (counts could not be read); if the tests print a runner's summary line themselves, make them stop, else report this run's output as a proofpr bug`;
}
