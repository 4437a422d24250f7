import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestRun } from '../../events.js';
import { loadBashParser } from '../../permissions/bash-parser.js';
import { collectObserved } from '../test-results/observe/collect-observed.js';
import { countCalls } from '../test-results/observe/count-calls.js';
import { observedEnv } from '../test-results/observe/observed-env.js';
import { readCounts, type ReadCounts } from '../test-results/read-counts.js';
import { isTestCommand } from './test-runs.js';
import type { BashOutcome, TestRunHandle } from '../types.js';
import { recordRun, type VerifierContext } from '../verifier-context.js';

/** Before a Bash call: a handle with the tree hash when it runs the tests (undefined when it does not, or the tree can't be hashed). */
export async function beforeTestRun(ctx: VerifierContext, command: string): Promise<TestRunHandle | undefined> {
  if (!isTestCommand(command, ctx.config.test.command, await loadBashParser())) return undefined;
  const h = await ctx.hash();
  if (h.tree === undefined) {
    ctx.onEvent({
      type: 'notice',
      message: `this test run is not counted: could not hash the worktree (${h.error}); remove nested git repositories (folders with their own .git) or add them to .gitignore`,
    });
    return undefined;
  }
  const observeDir = await mkdtemp(join(ctx.scratch, 'proofpr-observe-'));
  const { extend, streamRunners } = await observedEnv(observeDir);
  const handle: TestRunHandle = { command, treeHash: h.tree, startedAt: new Date().toISOString(), extendEnv: extend, observeDir };
  ctx.state.reportBefore.set(handle, await ctx.statReport());
  ctx.state.streamRunners.set(handle, streamRunners);
  return handle;
}

/** The agent's run counted per runner call from the observers' reports, as the harness's own runs are; undefined when none was read. */
async function observedCounts(ctx: VerifierContext, handle: TestRunHandle, output: string) {
  if (!handle.observeDir) return undefined;
  try {
    const roots = [ctx.root, await realpath(ctx.root).catch(() => ctx.root)];
    const o = await collectObserved(handle.observeDir, output, roots, ctx.state.streamRunners.get(handle) ?? []);
    const counted = countCalls(o.calls, o.seen, output);
    return counted.counts === null || counted.note ? undefined : counted;
  } finally {
    await rm(handle.observeDir, { recursive: true, force: true });
  }
}

/** After an agent's test run: its counts (from the report it rewrote, else its output), recorded. */
export async function afterTestRun(ctx: VerifierContext, handle: TestRunHandle, outcome: BashOutcome): Promise<TestRun> {
  let output = outcome.output;
  if (outcome.outputPath) output = await readFile(outcome.outputPath, 'utf8').catch(() => outcome.output);
  // A report the run did not rewrite (same mtime and size as before it) is a previous run's.
  const before = ctx.state.reportBefore.get(handle);
  const after = await ctx.statReport();
  const rewritten = !(before && after && before.mtimeMs === after.mtimeMs && before.size === after.size);
  const observed = await observedCounts(ctx, handle, output);
  const c: ReadCounts = observed
    ? { counts: observed.counts, source: observed.source, runner: [...new Set(observed.calls.map((x) => x.runner))].join('+') }
    : readCounts({
        root: ctx.root,
        report: rewritten ? ctx.config.test.report : undefined,
        startedAtMs: Date.parse(handle.startedAt),
        endedAtMs: Date.parse(outcome.endedAt),
        output,
      });
  const run: TestRun = {
    command: outcome.command || handle.command,
    exitCode: outcome.exitCode,
    startedAt: handle.startedAt,
    endedAt: outcome.endedAt,
    treeHash: handle.treeHash,
    counts: c.counts,
    source: c.source,
    ...(c.reportPath ? { reportPath: c.reportPath } : {}),
    ...(c.runner ? { runner: c.runner } : {}),
    ...(observed?.tests.length ? { tests: observed.tests } : {}),
    ...(observed ? { calls: observed.calls.map(({ runner, source, counts, from }) => ({ runner, source, counts, from })) } : {}),
    by: 'agent',
    ...(outcome.outputPath ? { outputPath: outcome.outputPath } : {}),
  };
  return recordRun(ctx, run, handle.treeHash, await ctx.hash());
}
