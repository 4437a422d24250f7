import type { FlakyTest, TestRun } from '../../events.js';
import { harnessTestRun, type HarnessRunOptions, type HarnessRunResult } from './harness-run.js';
import { selectionOf, type TestSelection } from '../test-results/observe/selection.js';

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
 * A harness run that tells a flaky test from a failing one. When tests fail, they first run again alone
 * (narrowed to them where the runner allows, selection.ts; the whole command elsewhere), up to `reruns`
 * times: a failing test that fails again every time is a failure, and the first run counts, at the cost
 * of the failing tests' time, not the suite's. When one passes alone, the whole command runs again on the
 * same checkout, each time as a run of its own (fresh process, home, observe folder), up to `reruns`
 * times, stopping at the first clean run: a test is flaky when it failed in one run and passed in a run of
 * the whole command, so a test that passes alone but fails beside the others every time (an order
 * dependence) stays a failure. The run that counts is the whole run with the fewest failing tests, so a
 * flaky test that passed there is neither a failure nor a regression. A run without per-test ids is not
 * run again (there is no test to tell apart), nor one that timed out.
 */
export async function settledHarnessRun(opts: HarnessRunOptions, reruns: number): Promise<SettledRun> {
  const first = await harnessTestRun(opts);
  const failing = (first.run.tests ?? []).filter((t) => t.outcome === 'failed');
  // A run that timed out or could not start (exit null) is not run again: it would cost its whole time limit each time.
  if (failing.length === 0 || reruns <= 0 || first.run.exitCode === null || opts.signal?.aborted) return { ...first, flaky: [], reruns: 0 };
  const failingSet = new Set(failing.map((t) => t.id));
  let n = 0;
  const again = async (select?: TestSelection): Promise<HarnessRunResult> => {
    n++;
    return harnessTestRun({
      ...opts,
      ...(opts.outputFile ? { outputFile: rerunOutputFile(opts.outputFile, n) } : {}),
      ...(select ? { select } : {}),
    });
  };
  const stop = (r: HarnessRunResult): boolean => r.run.exitCode === null || opts.signal?.aborted === true;
  const alone: TestRun[] = [];
  const whole: HarnessRunResult[] = [first];
  // A re-run with a selection is a run of the whole command only when it ran every test the first run ran
  // (the runner could not narrow it); one that ran some others too (a name matched elsewhere) is not.
  const ranInFirst = (first.run.tests ?? []).filter((t) => t.outcome !== 'skipped').map((t) => t.id);
  const isWhole = (r: TestRun): boolean => {
    const ran = new Set((r.tests ?? []).filter((t) => t.outcome !== 'skipped').map((t) => t.id));
    return ranInFirst.every((id) => ran.has(id));
  };
  const passedIn = (runs: readonly TestRun[]): Set<string> =>
    new Set(runs.flatMap((r) => (r.tests ?? []).filter((t) => failingSet.has(t.id) && t.outcome === 'passed').map((t) => t.id)));
  for (let i = 0; i < reruns; i++) {
    const r = await again(selectionOf(failing));
    if (isWhole(r.run)) whole.push(r);
    else alone.push(r.run);
    if (stop(r) || passedIn([r.run]).size > 0) break;
  }
  const candidates = passedIn([...alone, ...whole.map((w) => w.run)]);
  if (candidates.size > 0) {
    while (whole.length <= reruns && !clean(whole[whole.length - 1]?.run as TestRun)) {
      const r = await again();
      whole.push(r);
      if (stop(r)) break;
    }
  }
  const passedWhole = passedIn(whole.map((w) => w.run));
  const flaky = flakyAcross([...whole.map((w) => w.run), ...alone]).filter((f) => passedWhole.has(f.test));
  const orderDependent = [...candidates].filter((id) => !passedWhole.has(id)).sort();
  const chosen = counting(whole);
  const note = [
    `${whole.length + alone.length} runs of this tree (${alone.length} of the failing tests alone)`,
    flaky.length
      ? `flaky (passed and failed): ${flaky.map((f) => `${f.test} (${f.failures} of ${f.runs} failed)`).join(', ')}`
      : orderDependent.length === 0
        ? 'the failing tests failed every time'
        : '',
    orderDependent.length
      ? `passed alone but failed in every run of the whole command (an order dependence): ${orderDependent.join(', ')}`
      : '',
  ]
    .filter(Boolean)
    .join('; ');
  const run: TestRun = { ...chosen.run, ...(flaky.length ? { flaky } : {}), note: chosen.run.note ? `${chosen.run.note}; ${note}` : note };
  return { ...chosen, run, flaky, reruns: n };
}

/** `verify.flaky_reruns` from the run settings, else the default. */
export function flakyReruns(settings: { verify?: { flaky_reruns?: number } }): number {
  return settings.verify?.flaky_reruns ?? DEFAULT_FLAKY_RERUNS;
}
