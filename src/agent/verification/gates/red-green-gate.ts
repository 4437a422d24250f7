import type { Baseline } from '../test-runs/baseline.js';
import type { DiffGateFacts } from './diff-gates.js';
import { redGreen, type RedGreenResult } from './red-green.js';
import { listIds } from '../test-results/test-outcomes.js';
import type { Hash, VerifierContext } from '../verifier-context.js';
import { classifyWorktree, fixFiles } from '../shipped/classify.js';
import type { FixView } from '../shipped/types.js';

export interface RedGreenInput {
  final: boolean;
  diff: DiffGateFacts;
  base: Baseline | undefined;
  /** Ids that failed on the base and pass at the final run (empty before it). */
  fixed: readonly string[];
  /** The harness's final run's counts, for a base whose report named no failing test. */
  now?: { failed: number; executed: number };
  current: Hash;
}

/**
 * The red-green gate's facts: decided from what is known when it can be (fixed ids, a green or red
 * base, no test changed); otherwise the changed tests run on the base, once per tree.
 */
export async function redGreenFacts(ctx: VerifierContext, input: RedGreenInput): Promise<RedGreenResult> {
  const view = await fixView(ctx, input.current);
  const result = await provenRed(ctx, input, view);
  if (!view) return result;
  const files = fixFiles(view);
  if (input.final) ctx.onEvent({ type: 'fix', fix: { files, attributed: result.passed && files.length > 0 } });
  if (!result.passed || files.length > 0 || !result.failedBefore) return result;
  const other = view.changes.filter((c) => c.kind !== 'test' && c.kind !== 'inline-test').map((c) => c.path);
  return {
    ...result,
    passed: false,
    detail: `the tests pass without any change to the code the project ships (${view.basis.join('; ') || 'its sources'})${other.length ? `: what changed besides the tests is ${other.slice(0, 6).join(', ')}${other.length > 6 ? ', …' : ''}, which the project does not ship` : ''}. Fix the code itself (gates.red_green)`,
  };
}

/** The change as the shipped-code classifier sees it, once per tree; undefined when it cannot be read. */
export async function fixView(ctx: VerifierContext, current: Hash): Promise<FixView | undefined> {
  const cached = ctx.state.fixView;
  if (current.tree !== undefined && cached?.tree === current.tree) return cached.view;
  const view = await classifyWorktree(ctx.root, ctx.opts.baseSha, ctx.opts.gitDir).catch((e: unknown) => {
    ctx.log.warn({ err: (e as Error).message }, 'could not classify the change into shipped code and the rest');
    return undefined;
  });
  ctx.state.fixView = current.tree === undefined ? undefined : { tree: current.tree, view };
  return view;
}

/** Whether a test that failed before the change passes after it, proven by the change's own parts. */
async function provenRed(ctx: VerifierContext, input: RedGreenInput, view: FixView | undefined): Promise<RedGreenResult> {
  const { final, diff, base, fixed, current } = input;
  const { opts, state } = ctx;
  const { assertions } = diff;
  // Inline tests (Rust #[cfg(test)] items in a shipped source) are test changes too.
  const inline = view?.changes.filter((c) => c.kind === 'inline-test' || c.kind === 'mixed').map((c) => c.path) ?? [];
  const tests = [...new Set([...assertions.changedTestFiles, ...inline])];
  // No test file changed, but test material did (a fixture module, a data file a parametrised test reads):
  // the reversion run shows whether the tests it adds fail without the shipped code.
  const material = view?.changes.filter((c) => c.kind === 'infrastructure' && c.status !== 'D').map((c) => c.path) ?? [];
  const testFiles = tests.length ? tests : material;
  const sha = opts.baseSha.slice(0, 12);
  if (fixed.length)
    return {
      passed: true,
      detail: `${fixed.length} test(s) failed on the base commit ${sha} and pass now: ${listIds(fixed)}`,
      testFiles,
      failedBefore: true,
    };
  // Red or green is the base's counts, not its ids: a report read from summary lines names no test.
  const failedOnBase = base?.countsKnown ? (base.counts?.failed ?? 0) : undefined;
  const redWithoutIds = failedOnBase !== undefined && failedOnBase > 0 && base?.failingIds.length === 0;
  // Proven by counts only from the harness's own run, with no test changed or deleted and none fewer run.
  const now = input.now;
  const noTestTouched = testFiles.length === 0 && assertions.deletedTestFiles.length === 0;
  if (final && redWithoutIds && now?.failed === 0 && now.executed >= (base?.executed ?? 0) && noTestTouched)
    return {
      passed: true,
      detail: `${failedOnBase} test(s) failed on the base commit ${sha} (its output names no test) and none fails now, with no test added or changed`,
      testFiles,
      failedBefore: true,
    };
  if (testFiles.length === 0 && failedOnBase === 0) {
    return {
      passed: false,
      detail: `the base commit ${sha} passes its tests and no test was added or changed: add a test that fails without the fix (gates.red_green)`,
      testFiles,
      failedBefore: false,
    };
  }
  if (testFiles.length === 0) {
    return final
      ? {
          passed: false,
          detail: `no test that failed on the base commit passes now, and no test was added or changed: add a test that fails without the fix (gates.red_green)`,
          testFiles,
          failedBefore: false,
        }
      : { passed: true, detail: 'checked at the final run: a test failing on the base must pass then', testFiles, failedBefore: false };
  }
  if (!final && failedOnBase !== undefined && failedOnBase > 0) {
    // A red base: the proof is a test failing there that passes at the final run (the fixed ids), which only the final run can show.
    return {
      passed: true,
      detail: 'checked at the final run: the base is red, so a test failing there must pass then',
      testFiles,
      failedBefore: false,
    };
  }
  if (current.tree !== undefined && state.redGreenCache?.tree === current.tree) return state.redGreenCache.result;
  const result = await redGreen({
    root: ctx.root,
    baseSha: opts.baseSha,
    config: ctx.config,
    exec: opts.exec,
    testFiles,
    deletedTestFiles: assertions.deletedTestFiles,
    scratchDir: ctx.scratch,
    ...ctx.gitDir,
    logger: ctx.log,
    // A flaky base test failing in the reversion run proves nothing either.
    ...(base ? { baseFailing: [...base.failingIds, ...(base.flaky ?? []).map((f) => f.test)] } : {}),
    ...(view ? { apply: reversion(view) } : {}),
  });
  state.redGreenCache = current.tree === undefined ? undefined : { tree: current.tree, result };
  return result;
}

/** The reversion run's tree: the base plus every change that is not the shipped code's. */
function reversion(view: FixView): { copy: string[]; remove: string[]; splice: string[] } {
  const copy: string[] = [];
  const remove: string[] = [];
  const splice: string[] = [];
  for (const c of view.changes) {
    if (c.kind === 'shipped') continue;
    if (c.kind === 'mixed') splice.push(c.path);
    else if (c.status === 'D') remove.push(c.path);
    else copy.push(c.path);
  }
  return { copy, remove, splice };
}
