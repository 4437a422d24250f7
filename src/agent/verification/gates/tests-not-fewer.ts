import type { GateResult, TestCase, TestRun } from '../../events.js';
import { git } from '../../../workspace/git.js';
import { changedFiles } from '../changes/changed-files.js';
import { listIds } from '../test-results/test-outcomes.js';
import type { Baseline } from '../test-runs/baseline.js';
import type { VerifierContext } from '../verifier-context.js';

export const NOT_FEWER_GATE = 'tests-not-fewer';

const norm = (s: string): string => s.trim().replace(/\s+/g, ' ');
/** A test's file: its report's, else the `file > name` prefix of its id. */
const fileOf = (t: TestCase): string | undefined => t.file ?? (t.id.includes(' > ') ? t.id.slice(0, t.id.indexOf(' > ')) : undefined);
const executedIn = (r: TestRun): number => (r.counts ? r.counts.passed + r.counts.failed : 0);

/** What the test ids say about base tests the final run did not execute. */
export interface MissingTests {
  /** Base tests whose test file the change deleted or edited: removed or renamed by the agent, judged by test integrity and the kept run. */
  removed: string[];
  /** Base tests in files the change did not touch: nothing in the change explains them. */
  elsewhere: string[];
  /** The change edited a file that holds base tests (a runner that counts assertions counts fewer when one is rewritten). */
  editedTests: boolean;
}

/**
 * Base tests (executed there) that the final run did not execute, split by `touched`: whether the change
 * deleted or edited the file that held the test.
 */
export function missingTests(base: Baseline, final: TestRun, touched: (t: TestCase) => boolean): MissingTests {
  const executed = new Set((final.tests ?? []).filter((t) => t.outcome !== 'skipped').map((t) => t.id));
  const gone = base.tests.filter((t) => t.outcome !== 'skipped' && !executed.has(t.id));
  return {
    removed: gone.filter(touched).map((t) => t.id),
    elsewhere: gone.filter((t) => !touched(t)).map((t) => t.id),
    editedTests: base.tests.some(touched),
  };
}

const NONE: MissingTests = { removed: [], elsewhere: [], editedTests: false };

/**
 * Gate tests-not-fewer, on the harness's final run of the commit: it executed no fewer tests than the same
 * command executed on the base commit (both counted by the harness, each held against the runner's own
 * summary). A shortfall passes only when the change accounts for it: base tests whose file it deleted or
 * edited (`removed`, judged by test integrity and the kept run, listed for review there), or, for a runner
 * that counts assertions rather than its test ids (node-tap), fewer assertions in test files it edited
 * while every base test id outside them still ran. Anything else — a runner config or filter that leaves
 * tests out, a count cut short — fails here, and no later judgement can pass it. Undefined when there is
 * nothing to compare (no final run, unknown counts on either side, another command).
 */
export function judgeNotFewer(base: Baseline, final: TestRun, missing: MissingTests = NONE): GateResult | undefined {
  if (final.by !== 'harness' || final.kind !== 'final' || !final.counts || !base.countsKnown) return undefined;
  if (norm(base.run.command) !== norm(final.command)) return undefined;
  const now = executedIn(final);
  const cmd = `\`${final.command}\``;
  const counts = `${cmd} executed ${now} test(s) on the commit, ${base.executed} on the base commit`;
  if (now >= base.executed) return { name: NOT_FEWER_GATE, passed: true, detail: counts };
  const short = base.executed - now;
  const { removed, elsewhere } = missing;
  const because = removed.length
    ? `; ${removed.length} base test(s) whose file the change deleted or edited are gone (${listIds(removed)}), judged by the kept run`
    : '';
  const perAssertion = final.tests !== undefined && final.counts.total > final.tests.length;
  if (removed.length >= short || (perAssertion && missing.editedTests && elsewhere.length === 0))
    return {
      name: NOT_FEWER_GATE,
      passed: true,
      detail: `${counts}${because}${removed.length >= short ? '' : '; the rest are assertions of the test files the change edited'}`,
    };
  const lost = elsewhere.length ? ` (${listIds(elsewhere)} did not run)` : '';
  return {
    name: NOT_FEWER_GATE,
    passed: false,
    detail:
      `${cmd} executed ${now} test(s) in the final run of the commit, ${short} fewer than the ${base.executed} it executed on the base commit${because}; ` +
      `${short - removed.length} are not accounted for by a deleted or edited test${lost}: restore the runner config, script or filter that leaves them out`,
  };
}

/**
 * Whether the change deleted or edited the file that held a base test: its report's file (or the
 * `file > name` prefix of its id) among the changed paths; a runner that names no file (node:test's
 * junit) by content: the test's name appears in the base commit's version of a changed path.
 */
async function touchedBy(ctx: Pick<VerifierContext, 'root' | 'gitDir'>, baseTree: string, changed: readonly string[]) {
  const paths = new Set(changed);
  const texts = new Map<string, string>();
  for (const p of changed.slice(0, 200)) {
    const r = await git(['cat-file', 'blob', `${baseTree}:${p}`], {
      cwd: ctx.root,
      ...(ctx.gitDir.gitDir ? { env: { GIT_DIR: ctx.gitDir.gitDir } } : {}),
    }).catch(() => undefined);
    if (r && r.stdout.length < 2_000_000) texts.set(p, r.stdout);
  }
  return (t: TestCase): boolean => {
    const file = fileOf(t);
    if (file !== undefined) return paths.has(file);
    const name = t.id.split(' > ').pop() ?? t.id;
    return [...texts.values()].some((text) => text.includes(name));
  };
}

/**
 * The gate at the final check (none at a Stop): the final run against the baseline. The files the change
 * touched are read from git only when the final run counted fewer.
 */
export async function notFewerGates(
  ctx: Pick<VerifierContext, 'root' | 'gitDir'>,
  final: boolean,
  counting: TestRun | undefined,
  base: Baseline | undefined,
): Promise<GateResult[]> {
  if (!final || !counting || !base) return [];
  let missing = NONE;
  const baseTree = base.run.treeHash;
  if (counting.counts && base.countsKnown && executedIn(counting) < base.executed && baseTree && counting.treeHash) {
    const changed = await changedFiles(ctx.root, baseTree, counting.treeHash, ctx.gitDir.gitDir);
    missing = missingTests(base, counting, await touchedBy(ctx, baseTree, changed));
  }
  const g = judgeNotFewer(base, counting, missing);
  return g ? [g] : [];
}
