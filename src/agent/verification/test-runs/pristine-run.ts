import { join } from 'node:path';
import { snapshotCommit } from '../../../workspace/snapshot-commit.js';
import type { TestRun } from '../../events.js';
import { flakyReruns, settledHarnessRun } from './flaky-reruns.js';
import { withPristineCheckout } from './pristine-checkout.js';
import { fixedIds } from '../test-results/test-outcomes.js';
import { recordRun, type VerifierContext } from '../verifier-context.js';

const DEFAULT_COMMIT: NonNullable<VerifierContext['opts']['commit']> = {
  message: 'proofpr: the tested commit',
  identity: { name: 'proofpr[bot]', email: 'proofpr[bot]@users.noreply.github.com' },
};

/**
 * The evidence run: the commit that would be pushed is written (not yet on the branch), checked out
 * clean (nothing ignored or untracked from the worktree), and test.command runs there with the
 * runner's report asked for by the harness. A failure to build or check out the commit is a run with
 * unknown counts that says why. Remembers the tested commit (state.tested) when the run ran.
 */
async function pristineRun(ctx: VerifierContext, command: string, treeHash: string, outputFile: string): Promise<TestRun> {
  const { opts, config, root, gitDir, scratch } = ctx;
  const c = opts.commit ?? DEFAULT_COMMIT;
  const startedAt = new Date().toISOString();
  try {
    const snap = await snapshotCommit({
      worktree: root,
      message: c.message,
      identity: c.identity,
      ...(c.coAuthor ? { coAuthor: c.coAuthor } : {}),
      ...gitDir,
      exclude: config.test.report ? [config.test.report] : [],
    });
    // A failing test is run again (flaky-reruns.ts): one that also passed is flaky, not a failure.
    const { run } = await withPristineCheckout({ root, ...gitDir, sha: snap.sha, scratchDir: scratch, logger: ctx.log }, (dir) =>
      settledHarnessRun(
        {
          cwd: dir,
          command,
          config,
          exec: opts.exec,
          scratchDir: scratch,
          kind: 'final',
          treeHash,
          commit: snap.sha,
          outputFile,
          ...(opts.signal ? { signal: opts.signal } : {}),
        },
        flakyReruns(config),
      ),
    );
    ctx.state.tested = run.exitCode === null ? undefined : snap;
    return run;
  } catch (e) {
    ctx.state.tested = undefined;
    const msg = (e as Error).message.trim();
    return {
      command,
      exitCode: null,
      startedAt,
      endedAt: new Date().toISOString(),
      treeHash,
      counts: null,
      source: 'none',
      by: 'harness',
      kind: 'final',
      note: `could not check out the commit to test: ${msg}`,
    };
  }
}

/** The harness's final run of test.command (when gates.final_run is on), recorded with the ids it fixed. */
export async function finalRun(ctx: VerifierContext): Promise<void> {
  if (ctx.config.gates.final_run) await countedRun(ctx);
}

/**
 * An unverified run's closing evidence: the harness runs test.command on a clean checkout of the final
 * tree, whatever gates.final_run says, unless it already ran exactly that tree.
 */
export async function closingRun(ctx: VerifierContext): Promise<void> {
  const now = await ctx.hash();
  if (now.tree === undefined) return;
  if (ctx.state.runs.some((r) => r.by === 'harness' && r.kind === 'final' && r.treeHash === now.tree)) return;
  await countedRun(ctx);
}

async function countedRun(ctx: VerifierContext): Promise<void> {
  const { config, opts, state } = ctx;
  const command = config.test.command;
  if (command === undefined) return;
  const before = await ctx.hash();
  state.finalRuns++;
  const outputFile = join(opts.runDir, 'tool-output', `final-test-run-${state.finalRuns}.txt`);
  const run = await pristineRun(ctx, command, before.tree ?? '', outputFile);
  // Evidence gains the ids that failed on the base and pass on the commit.
  const base = run.tests?.length ? await ctx.getBaseline() : undefined;
  const fixed = base ? fixedIds(base, run) : [];
  recordRun(ctx, fixed.length ? { ...run, fixed } : run, before.tree ?? '', await ctx.hash());
}
