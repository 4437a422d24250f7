import type { TestRun } from '../../events.js';
import type { Baseline } from '../test-runs/baseline.js';
import { isNotBuilt, passesIn } from './unbuilt.js';

/** At most eight ids, then how many more. */
export const listIds = (ids: readonly string[]): string =>
  ids.length > 8 ? `${ids.slice(0, 8).join(', ')} and ${ids.length - 8} more` : ids.join(', ');

/** Ids that failed on the base and pass in `run` (a unit that did not build there: it builds and passes now). */
export function fixedIds(base: Baseline, run: TestRun): string[] {
  return base.failingIds.filter((id) => passesIn(run, id));
}

/**
 * Every test executed on the base (passed or failed) must be executed by the final run, unless its
 * file was deleted (test integrity judges that). A unit that did not build on the base is not one. Undefined when either run has no per-test ids.
 */
export function testsKept(
  base: Baseline,
  run: TestRun,
  deletedFiles: readonly string[],
): { passed: boolean; missing: string[]; checked: number } | undefined {
  if (!base.tests.length || !run.tests?.length) return undefined;
  const executed = new Set(run.tests.filter((t) => t.outcome !== 'skipped').map((t) => t.id));
  const deleted = new Set(deletedFiles);
  // A base unit that did not build is no test the final run must execute (its tests appear when it builds).
  const before = base.tests.filter((t) => t.outcome !== 'skipped' && !(t.file && deleted.has(t.file)) && !isNotBuilt(t.id));
  const missing = before.filter((t) => !executed.has(t.id)).map((t) => t.id);
  return { passed: missing.length === 0, missing, checked: before.length };
}
