import type { GateResult, TestRun } from '../events.js';
import type { HookOutcome } from '../hooks/types.js';
import type { Baseline } from './test-runs/baseline.js';
import { changedFiles } from './changes/changed-files.js';
import { diffGates, type DiffGateFacts } from './gates/diff-gates.js';
import { ADVISORY_GATES, adviseAtFinal, adviseAtStop, deferredToKept, differentialJudges } from './differential/advisory.js';
import { differentialGate } from './differential/differential-gate.js';
import { evaluateGates, runThatCounts, type GateFacts } from './gates/gates.js';
import { protectedChangesNow } from './gates/protected-changes.js';
import { fixView, redGreenFacts } from './gates/red-green-gate.js';
import type { RedGreenResult } from './gates/red-green.js';
import { stopMessage } from './stop-message.js';
import { notFewerGates } from './gates/tests-not-fewer.js';
import { fixedIds, testsKept } from './test-results/test-outcomes.js';
import type { StopVerdict } from './types.js';
import type { Hash, VerifierContext } from './verifier-context.js';

/** The worktree as the gates judge it: hashed after the repository's Stop hooks ran (when it has any). */
interface TreeNow {
  current: Hash;
  stopHooks?: HookOutcome[];
  changedByStopHooks?: GateFacts['changedByStopHooks'];
}

/** Runs the Stop hooks (when configured) and hashes the worktree after them. */
async function treeAfterStopHooks(ctx: VerifierContext, counting: TestRun | undefined): Promise<TreeNow> {
  const { config, root } = ctx;
  if (config.hooks.Stop.length === 0) return { current: await ctx.hash() };
  // Hashed after the Stop hooks: a formatter hook's changes are part of what gets committed.
  const before = await ctx.hash();
  const stopHooks = await ctx.opts.hooks.run('Stop', { hook_event_name: 'Stop', cwd: root, stop_blocks: ctx.state.stopBlocks });
  const current = await ctx.hash();
  if (before.tree !== undefined && current.tree !== undefined && before.tree !== current.tree && counting?.treeHash === before.tree) {
    const changedByStopHooks = {
      hooks: config.hooks.Stop.map((h) => h.command),
      files: await changedFiles(root, before.tree, current.tree, ctx.opts.gitDir),
    };
    return { current, stopHooks, changedByStopHooks };
  }
  return { current, stopHooks };
}

/** Files the counting run itself changed, when the tree after it is still the current one. */
async function changedByTestRun(ctx: VerifierContext, counting: TestRun | undefined, current: Hash): Promise<string[] | undefined> {
  const after = counting && ctx.state.treeAfter.get(counting);
  return counting && after !== undefined && after === current.tree
    ? await changedFiles(ctx.root, counting.treeHash, after, ctx.opts.gitDir)
    : undefined;
}

interface Observed extends TreeNow {
  final: boolean;
  counting: TestRun | undefined;
  changedByTestRun: string[] | undefined;
  diff: DiffGateFacts | undefined;
  base: Baseline | undefined;
  redGreen: RedGreenResult | undefined;
  protectedChanges: GateResult[];
}

/**
 * Ids that failed on the base and pass in the counting run: the harness's final run records them; an
 * agent's run (gates.final_run off) has per-test ids from the same observers, so they compare too.
 */
function fixedAt(counting: TestRun, base: Baseline | undefined): readonly string[] {
  if (counting.by === 'harness') return counting.fixed ?? [];
  return base && counting.tests?.length ? fixedIds(base, counting) : [];
}

/**
 * The files the runners reported tests from, on the base and in this run's test runs: test files by what
 * the runner ran, whatever their names (a root `tests.js` that `mocha tests.js` runs). A file the project
 * ships (shipped/: a module whose doctests pytest runs) stays code.
 */
async function reportedTests(ctx: VerifierContext, base: Baseline | undefined, current: Hash): Promise<Set<string>> {
  const files = [...(base?.tests ?? []), ...ctx.state.runs.flatMap((r) => r.tests ?? [])].flatMap((t) => (t.file ? [t.file] : []));
  const reported = new Set(files.filter((f) => !f.startsWith('/') && !f.startsWith('../')));
  if (reported.size === 0) return reported;
  const view = await fixView(ctx, current);
  for (const c of view?.changes ?? []) if (c.kind === 'shipped' || c.kind === 'mixed') reported.delete(c.path);
  return reported;
}

/** Everything the gates need, gathered in the order the checks have always run (events keep their order). */
async function observe(ctx: VerifierContext, final: boolean): Promise<Observed> {
  const { config, redGreenOn } = ctx;
  const counting = runThatCounts(ctx.state.runs);
  const tree = await treeAfterStopHooks(ctx, counting);
  const changed = await changedByTestRun(ctx, counting, tree.current);
  const base = redGreenOn || final ? await ctx.getBaseline() : undefined;
  const diff = config.gates.assertions_kept || redGreenOn ? await diffGates(ctx, await reportedTests(ctx, base, tree.current)) : undefined;
  const fixed = final && counting ? fixedAt(counting, base) : [];
  const redGreen =
    redGreenOn && diff
      ? await redGreenFacts(ctx, {
          final,
          diff,
          base,
          fixed,
          current: tree.current,
          ...(final && counting?.by === 'harness' && counting.counts
            ? { now: { failed: counting.counts.failed, executed: counting.counts.passed + counting.counts.failed } }
            : {}),
        })
      : undefined;
  const protectedChanges = await protectedChangesNow(ctx.root, ctx.opts.baseSha, {
    writable: config.permissions.writable,
    writableWorkflows: config.permissions.writable_workflows,
    ...(config.permissions.control_reviewed ? { controlReviewed: true } : {}),
    ...ctx.gitDir,
  });
  return { ...tree, final, counting, changedByTestRun: changed, diff, base, redGreen, protectedChanges };
}

/** The gates' input from what was observed. */
function gateFacts(ctx: VerifierContext, o: Observed): GateFacts {
  const { config, opts } = ctx;
  const { current, counting, base, diff } = o;
  const kept =
    o.final && counting?.by === 'harness' && base ? testsKept(base, counting, diff?.assertions.deletedTestFiles ?? []) : undefined;
  return {
    config,
    protectedChanges: o.protectedChanges,
    testRuns: ctx.state.runs,
    currentTreeHash: current.tree ?? '',
    ...(current.error !== undefined ? { hashError: current.error } : {}),
    ...(o.changedByTestRun?.length ? { changedByTestRun: o.changedByTestRun } : {}),
    ...(o.changedByStopHooks ? { changedByStopHooks: o.changedByStopHooks } : {}),
    ...(base?.countsKnown || opts.baselineExecuted !== undefined
      ? { baselineExecuted: Math.max(base?.countsKnown ? base.executed : 0, opts.baselineExecuted ?? 0) }
      : {}),
    ...(kept ? { testsKept: kept } : {}),
    ...(config.gates.assertions_kept && diff ? { assertions: diff.assertions, testConfig: diff.testConfig } : {}),
    ...(o.redGreen ? { redGreen: o.redGreen } : {}),
    ...(o.stopHooks ? { stopHooks: o.stopHooks } : {}),
  };
}

/**
 * The gates with the maintainer's tests as the judge of test changes: at the final check, once every
 * other gate passed, the differential run (tests-kept-base) decides, and the parsed integrity checks
 * are early feedback only (ADVISORY_GATES), as are the count gates that fail only because base tests
 * are no longer executed (deferredToKept: the kept run lists them as changed expectations); at a Stop
 * those send the model back once. When the kept run did not run, the count gates stand as they are.
 */
async function judged(ctx: VerifierContext, observed: Observed, final: boolean): Promise<GateResult[]> {
  const facts = gateFacts(ctx, observed);
  const gates = [
    ...evaluateGates(facts),
    // The final run against the baseline: a hard gate, never deferred to the kept run (tests-not-fewer.ts).
    ...(await notFewerGates(ctx, final, observed.counting, observed.base)),
    ...((await ctx.extraGates?.(observed.current)) ?? []),
  ];
  const judges = differentialJudges(ctx);
  const deferred = judges ? deferredToKept(facts, gates) : new Set<string>();
  if (!final) return adviseAtStop(ctx, gates, deferred);
  const hard = gates.filter((g) => !(judges && (ADVISORY_GATES.has(g.name) || deferred.has(g.name))));
  const diff = hard.every((g) => g.passed) ? await differentialGate(ctx, observed.counting) : undefined;
  if (!diff) return gates;
  return [...(diff.keptRan ? adviseAtFinal(gates, deferred) : gates), diff.gate];
}

/**
 * Evaluates every gate now (at a Stop, or `final` after the harness's own run): a `gate` event per gate,
 * a Stop that fails counts as a block, and the verdict names the accepted tree when all passed.
 */
export async function evaluateStop(ctx: VerifierContext, final: boolean): Promise<StopVerdict> {
  const observed = await observe(ctx, final);
  const gates = await judged(ctx, observed, final);
  for (const g of gates)
    ctx.onEvent({ type: 'gate', name: g.name, passed: g.passed, detail: g.detail, final, ...(g.advisory ? { advisory: true } : {}) });
  const ok = gates.every((g) => g.passed);
  if (!ok && !final) ctx.state.stopBlocks++;
  ctx.log.debug({ final, ok, failed: gates.filter((g) => !g.passed).map((g) => g.name) }, 'gates evaluated');
  const acceptedTree = ok ? (observed.counting?.treeHash ?? observed.current.tree) : undefined;
  return { ok, gates, message: stopMessage(gates, ctx.config.test.command), ...(acceptedTree ? { acceptedTree } : {}) };
}
