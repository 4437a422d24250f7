import type { CountCheck, CountSource, TestCase, TestCounts } from '../../../events.js';
import { SUMMARY_PARSERS, stripAnsi } from '../parse-test-output.js';
import type { ObservedCall } from './collect-observed.js';
import { checkCounts, disagreementNote } from './count-check.js';
import { parsePlaywrightSummary } from './playwright-summary.js';

/** Runners that no observer can see start (binaries outside Node, Python and Go): their summary lines are read whenever present. */
const UNOBSERVABLE = new Set(['cargo']);
/** A summary parser's name → the runner names an observer reports it under. */
const ALIASES: Record<string, readonly string[]> = { tap: ['node-tap', 'ava', 'tap'], go: ['go'] };
const namesOf = (parser: string): readonly string[] => ALIASES[parser] ?? [parser];
/** Summary formats read only for a runner an observer saw start (too loose to read blind). */
const SEEN_ONLY = new Set(['playwright']);
const PARSERS = [...SUMMARY_PARSERS, { runner: 'playwright', parse: parsePlaywrightSummary }];

export interface CountedCalls {
  calls: ObservedCall[];
  counts: TestCounts | null;
  tests: TestCase[];
  source: CountSource;
  note?: string;
  /** The count held against each runner's own printed summary (count-check.ts); a disagreement leaves counts null. */
  checks?: CountCheck[];
}

/**
 * The counts of one run of the command as written: the sum over every runner call in it. A call the
 * observers reported counts from its report; a runner an observer saw start but that wrote no report
 * (or one no observer can see, such as cargo) counts from its own summary lines in the output. When
 * nothing was observed at all, the last summary line any runner printed is read, and the note says
 * that these counts could be printed by the tests themselves. Null counts: no runner output at all, or
 * a runner counted otherwise than its own closing summary says (`checks`; the note names both counts).
 */
export function countCalls(observed: ObservedCall[], seen: ReadonlySet<string>, output: string): CountedCalls {
  const calls = [...observed];
  const reported = new Set(observed.map((c) => c.runner));
  const nothingSeen = observed.length === 0 && seen.size === 0;
  const lines = stripAnsi(output).replace(/\r\n?/g, '\n').split('\n');
  const usedLines = new Set<number>();
  let blind: ObservedCall | undefined;
  let blindLine = -1;
  for (const { runner, parse } of PARSERS) {
    const names = namesOf(runner);
    if (names.some((n) => reported.has(n))) continue;
    const m = parse(lines);
    if (!m || usedLines.has(m.line)) continue;
    const call: ObservedCall = { runner, source: runner === 'tap' ? 'tap' : 'summary-line', counts: m.counts, tests: [], from: 'output' };
    if (UNOBSERVABLE.has(runner) || names.some((n) => seen.has(n))) {
      usedLines.add(m.line);
      calls.push(call);
    } else if (nothingSeen && !SEEN_ONLY.has(runner) && m.line > blindLine) {
      blind = call;
      blindLine = m.line;
    }
  }
  if (calls.length === 0 && blind) {
    return {
      calls: [blind],
      counts: blind.counts,
      tests: [],
      source: blind.source,
      note: `no runner call was observed (the command's processes did not carry proofpr's observers); counts read from ${blind.runner}'s summary line in the output`,
    };
  }
  if (calls.length === 0) return { calls, counts: null, tests: [], source: 'none' };
  const checks = checkCounts(calls, lines);
  const disagree = disagreementNote(checks);
  if (disagree) return { calls, counts: null, tests: [], source: 'none', checks, note: disagree };
  const counts: TestCounts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  for (const c of calls) {
    counts.passed += c.counts.passed;
    counts.failed += c.counts.failed;
    counts.skipped += c.counts.skipped;
    counts.total += c.counts.total;
  }
  const sources = new Set(calls.map((c) => c.source));
  const [only] = sources;
  const source: CountSource =
    sources.size === 1 && only ? only : calls.some((c) => c.source === 'summary-line') ? 'summary-line' : 'runner-report';
  return { calls, counts, tests: calls.flatMap((c) => c.tests), source, ...(checks.length ? { checks } : {}) };
}
