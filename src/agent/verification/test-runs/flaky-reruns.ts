import type { FlakyTest, TestRun } from '../../events.js';
import { harnessTestRun, type HarnessRunOptions, type HarnessRunResult } from './harness-run.js';

export type { FlakyTest } from '../../events.js';

/** `verify.flaky_reruns`' default (CONTRACT §11): how many more times a harness run with a failing test is made. */
export const DEFAULT_FLAKY_RERUNS = 2;

export interface SettledRun extends HarnessRunResult {
  /** Tests that both passed and failed over the runs of this tree (sorted by id). */
  flaky: FlakyTest[];
  /** Runs made after the first. */
  reruns: number;
}

const failingIds = (run: TestRun): string[] => (run.tests ?? []).filter((t) => t.outcome === 'failed').map((t) => t.id);

/** A run is clean when it exited 0 and no test failed in it: nothing more to learn by running again. */
const clean = (run: TestRun): boolean => run.exitCode === 0 && failingIds(run).length === 0;

/**
 * Every test that passed in one of `runs` and failed in another, with how many runs named it and how many
 * of those it failed in. Runs of one tree only (the caller's): a test that both passed and failed there
 * is flaky, whatever the runner.
 */
export function flakyAcross(runs: readonly TestRun[]): FlakyTest[] {
  const tally = new Map<string, { runs: number; failures: number; passes: number }>();
  for (const run of runs)
    for (const t of run.tests ?? []) {
      const e = tally.get(t.id) ?? { runs: 0, failures: 0, passes: 0 };
      e.runs++;
      if (t.outcome === 'failed') e.failures++;
      if (t.outcome === 'passed') e.passes++;
      tally.set(t.id, e);
    }
  return [...tally]
    .filter(([, e]) => e.failures > 0 && e.passes > 0)
    .map(([test, e]) => ({ test, runs: e.runs, failures: e.failures }))
    .sort((a, b) => (a.test < b.test ? -1 : a.test > b.test ? 1 : 0));
}

/** The run that counts: the one with the fewest failing tests (the first of equals); a clean one when there is one. */
function counting(results: readonly HarnessRunResult[]): HarnessRunResult {
  let best = results[0] as HarnessRunResult;
  // A re-run that timed out is a fact for the tally, never the run that counts.
  for (const r of results.slice(1).filter((x) => x.run.exitCode !== null))
    if (failingIds(r.run).length < failingIds(best.run).length || (clean(r.run) && !clean(best.run))) best = r;
  return best;
}

/** `<file>-rerun-<n>.txt` beside `<file>.txt`: each run's full output is kept. */
export function rerunOutputFile(outputFile: string, n: number): string {
  const dot = outputFile.lastIndexOf('.');
  return dot > outputFile.lastIndexOf('/') ? `${outputFile.slice(0, dot)}-rerun-${n}${outputFile.slice(dot)}` : `${outputFile}-rerun-${n}`;
}

/**
 * A harness run that tells a flaky test from a failing one: when a test fails, the same command runs again
 * on the same checkout, each time as a run of its own (fresh process, fresh home, fresh observe folder), up
 * to `reruns` times, stopping at the first clean run. The command runs as written, never narrowed by a
 * runner's filter: a test that fails only beside the others (an order dependence) fails again and stays a
 * failure, and no runner needs to be known. A test that both passed and failed is flaky; the run that
 * counts is the one with the fewest failing tests, so a test that failed every time still fails it, and a
 * flaky test that passed there is neither a failure nor a regression. A run without per-test ids is not
 * run again (there is no test to tell apart), nor one that timed out.
 */
export async function settledHarnessRun(opts: HarnessRunOptions, reruns: number): Promise<SettledRun> {
  const first = await harnessTestRun(opts);
  const results = [first];
  // A run that timed out or could not start (exit null) is not run again: it would cost its whole time limit each time.
  if (failingIds(first.run).length === 0 || first.run.exitCode === null || opts.signal?.aborted) return { ...first, flaky: [], reruns: 0 };
  for (let n = 1; n <= reruns; n++) {
    const again = await harnessTestRun({ ...opts, ...(opts.outputFile ? { outputFile: rerunOutputFile(opts.outputFile, n) } : {}) });
    results.push(again);
    if (clean(again.run) || again.run.exitCode === null || opts.signal?.aborted) break;
  }
  const flaky = flakyAcross(results.map((r) => r.run));
  const chosen = counting(results);
  const note = flaky.length
    ? `${results.length} runs of this tree; flaky (passed and failed): ${flaky.map((f) => `${f.test} (${f.failures} of ${f.runs} failed)`).join(', ')}`
    : `${results.length} runs of this tree; the failing tests failed every time`;
  const run: TestRun = { ...chosen.run, ...(flaky.length ? { flaky } : {}), note: chosen.run.note ? `${chosen.run.note}; ${note}` : note };
  return { ...chosen, run, flaky, reruns: results.length - 1 };
}

/** `verify.flaky_reruns` from the run settings, else the default. */
export function flakyReruns(settings: { verify?: { flaky_reruns?: number } }): number {
  return settings.verify?.flaky_reruns ?? DEFAULT_FLAKY_RERUNS;
}
