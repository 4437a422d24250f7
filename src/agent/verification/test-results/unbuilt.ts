import type { TestCase, TestRun } from '../../events.js';

/**
 * A unit of tests that could not be built or loaded (a Go package whose tests do not compile, a cargo
 * target, a jest, vitest or mocha file that fails before any test runs) is ONE failed test, named
 * `<unit> > [build failed]`. The runner itself counts no test there, so without it a run that builds
 * nothing has no counts, and the maintainer is not told what fails; with it, such a run is a counted
 * failing run whose failing "test" names the unit. Ids of the unit's real tests are absent from that
 * run: they did not run.
 */
const NOT_BUILT = '[build failed]';

const SUFFIX = ` > ${NOT_BUILT}`;

/** The failed test standing for a unit that could not be built or loaded (`file` when the unit is a file). */
export function notBuilt(unit: string, file?: string): TestCase {
  return { id: `${unit}${SUFFIX}`, outcome: 'failed', ...(file ? { file } : {}) };
}

export const isNotBuilt = (id: string): boolean => id.endsWith(SUFFIX);

/** The unit a not-built id stands for. */
const unitOf = (id: string): string => (isNotBuilt(id) ? id.slice(0, -SUFFIX.length) : id);

/** Whether every test a run read is a unit that did not build (the run compiled nothing that ran). */
export function onlyNotBuilt(tests: readonly TestCase[] | undefined): boolean {
  return (tests?.length ?? 0) > 0 && (tests ?? []).every((t) => isNotBuilt(t.id));
}

/**
 * Whether a test that failed on the base passes in `run`. A real test: by its id. A unit that did not
 * build on the base: it builds now (no such not-built test in the run), at least one test named under
 * it ran, and none of them fails. A unit with no test under it now (its test files deleted or built
 * out) is not fixed.
 */
export function passesIn(run: Pick<TestRun, 'tests' | 'counts'>, id: string): boolean {
  const tests = run.tests ?? [];
  if (!isNotBuilt(id)) return tests.some((t) => t.id === id && t.outcome === 'passed');
  if (tests.some((t) => t.id === id)) return false;
  const unit = `${unitOf(id)} > `;
  const under = tests.filter((t) => t.id.startsWith(unit));
  return under.some((t) => t.outcome === 'passed') && under.every((t) => t.outcome !== 'failed');
}
