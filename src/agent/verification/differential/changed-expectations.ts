import type { ChangedExpectation, TestCase, TestRun } from '../../events.js';
import type { Baseline } from '../test-runs/baseline.js';
import { isNotBuilt } from '../test-results/unbuilt.js';
import type { HarnessChange } from './kept-run.js';

/** The file a test id belongs to: its report's file, else the `file > name` prefix. */
export function fileOf(t: TestCase): string | undefined {
  if (t.file) return t.file;
  const at = t.id.indexOf(' > ');
  return at > 0 ? t.id.slice(0, at) : undefined;
}

/**
 * A test-data path rather than test code, which any test may read: under a fixture, golden-file or
 * snapshot folder, a snapshot, or any harness file that is not code (a `.toml`/`.json` case under `tests/`).
 */
const DATA = /(?:^|\/)(?:fixtures?|__fixtures__|testdata|__snapshots__|snapshots)\/|\.snap$/i;
const CODE = /\.(?:[cm]?[jt]sx?|py|go|rs|rb|java|kt|cs|php|swift|sh)$/i;
const isData = (p: string): boolean => DATA.test(p) || !CODE.test(p);
const dirOf = (p: string): string => p.split('/').slice(0, -1).join('/');

/**
 * Whether the agent changed what this base test checks: its own file, or test data (fixtures, golden
 * files, snapshots) it may read. Go reports no file: its ids are `<import path> > TestX`, matched by a
 * changed path in the folder that import path ends with (its `_test.go` files, its `testdata/`). A
 * runner that names no file at all (node:test's junit): any harness path the agent changed may hold it.
 * `ownFileOnly` (the base's tests did not run at all on the new code): only the test's own file, or its
 * Go package's `_test.go` files, count; a changed data or config file explains no build failure.
 */
export function changedByAgent(t: TestCase, change: HarnessChange, ownFileOnly = false): boolean {
  const touched = [...change.restored, ...change.removed];
  const file = fileOf(t);
  if (file === undefined) return !ownFileOnly && touched.length > 0;
  if (touched.includes(file) || (!ownFileOnly && touched.some(isData))) return true;
  return touched.some((p) => {
    const dir = dirOf(p).replace(/\/testdata(?:\/.*)?$/, '');
    return p.endsWith('_test.go') || (!ownFileOnly && p.includes('testdata/'))
      ? dir === '' || file === dir || file.endsWith(`/${dir}`)
      : false;
  });
}

/**
 * The test a test id sits in: a Go subtest's parent (`pkg > TestX/case` → `pkg > TestX`), a
 * parametrized case's function (`f.py > test_x[a]` → `f.py > test_x`), a method's class
 * (`f.py > C::test_x` → `f.py > C`), else the file (`f.py > test_x` → `f.py`).
 */
export function parentOf(id: string): string {
  if (id.endsWith(']') && id.includes('[')) return id.slice(0, id.lastIndexOf('['));
  const cut = Math.max(id.lastIndexOf(' > '), id.lastIndexOf('::'), id.lastIndexOf('/'));
  return cut < 0 ? '' : id.slice(0, cut);
}

const groupBy = (ids: readonly string[]): Map<string, string[]> => {
  const m = new Map<string, string[]>();
  for (const id of ids) m.set(parentOf(id), [...(m.get(parentOf(id)) ?? []), id]);
  return m;
};

/** A row of a table test: a Go subtest (`TestX/case`) or a parametrized case (`test_x[a]`). */
export function isRow(id: string): boolean {
  const last = id.slice(id.lastIndexOf(' > ') + 1);
  return (id.endsWith(']') && id.includes('[')) || last.includes('/');
}

/**
 * Base tests the final run no longer executes, each with the test that took its place when the change
 * renamed it: rows of one table test, as many new rows as rows gone, paired in order (a table whose rows
 * were renamed). Anything else counts as deleted (a renamed test function is a deleted one and a new one).
 */
export function renamedTo(gone: readonly string[], added: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const news = groupBy(added.filter(isRow));
  for (const [parent, olds] of groupBy(gone.filter(isRow))) {
    const fresh = news.get(parent) ?? [];
    if (fresh.length !== olds.length) continue;
    olds.forEach((id, i) => out.set(id, fresh[i] ?? ''));
  }
  return out;
}

export interface BaseTestsInput {
  base: Baseline;
  /** The kept run: the commit's source under the base's test harness. */
  kept: TestRun;
  /** The final run of the commit (the agent's tests); its ids tell which base tests were deleted or renamed. */
  final?: TestRun;
  change: HarnessChange;
  /** The base commit, shortened. */
  sha: string;
  /** Base tests already judged as failing on the base and still failing there (not listed again). */
  stillFailing: ReadonlySet<string>;
  /** How a test fails in the kept run's output. */
  failureOf: (id: string) => string;
  /** What to say of a base test the kept run did not run (default `did not run`): the build failure when it read no test at all. */
  notRun?: string;
}

type Outcome = NonNullable<ChangedExpectation['outcome']>;

/** What the final run says about a base test: executed, skipped, or gone (undefined when its ids are unknown). */
function finalStatus(final: TestRun | undefined): (id: string) => 'ran' | 'skipped' | 'gone' {
  const tests = final?.tests ?? [];
  if (!tests.length) return () => 'ran';
  const status = new Map(tests.map((t) => [t.id, t.outcome === 'skipped' ? ('skipped' as const) : ('ran' as const)]));
  return (id) => status.get(id) ?? 'gone';
}

/**
 * Every base test the change altered, or that regressed. A base test that passed there and fails under
 * the base's harness is a changed expectation when the agent changed it, else a regression. A base test
 * the final run no longer executes (deleted, renamed, skipped by the agent's tests) never silently
 * disappears: it is a changed expectation with its outcome under the base's harness, or a regression
 * when it fails there and the agent did not change it.
 */
export function judgeBaseTests(o: BaseTestsInput): { changedExpectations: ChangedExpectation[]; regressions: string[] } {
  const outcome = new Map((o.kept.tests ?? []).map((t) => [t.id, t.outcome]));
  const status = finalStatus(o.final);
  const baseIds = new Set(o.base.tests.map((t) => t.id));
  // A base unit that did not build is no test to keep: it is judged as failing there (stillFailing) or fixed.
  const considered = o.base.tests.filter((t) => t.outcome !== 'skipped' && !o.stillFailing.has(t.id) && !isNotBuilt(t.id));
  const gone = considered.filter((t) => status(t.id) === 'gone').map((t) => t.id);
  const added = (o.final?.tests ?? []).filter((t) => t.outcome !== 'skipped' && !baseIds.has(t.id)).map((t) => t.id);
  const renamed = renamedTo(gone, added);
  const changedExpectations: ChangedExpectation[] = [];
  const regressions: string[] = [];
  for (const t of considered) {
    const now: Outcome = outcome.get(t.id) ?? 'not run';
    const fails = now === 'failed' || now === 'not run';
    const st = status(t.id);
    if (st === 'ran' && (t.outcome !== 'passed' || !fails)) continue;
    if (fails && !changedByAgent(t, o.change, o.notRun !== undefined)) {
      regressions.push(t.id);
      continue;
    }
    const file = fileOf(t) ?? [...o.change.restored, ...o.change.removed].join(', ');
    const to = renamed.get(t.id);
    const kind = st === 'ran' ? 'changed' : st === 'skipped' ? 'skipped' : to !== undefined ? 'renamed' : 'deleted';
    const nowAt = kind === 'renamed' ? (to ?? file) : kind === 'deleted' ? 'none (deleted)' : file;
    const failure = now === 'failed' ? o.failureOf(t.id) || 'failed' : now === 'not run' ? (o.notRun ?? 'did not run') : '';
    changedExpectations.push({ test: t.id, base: `${file} @ ${o.sha}`, now: nowAt, failure, kind, outcome: now });
  }
  return { changedExpectations, regressions };
}
