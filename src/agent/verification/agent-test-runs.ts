import { readFile } from 'node:fs/promises';
import type { TestRun } from '../events.js';
import { loadBashParser } from '../permissions/bash-parser.js';
import { readCounts } from './read-counts.js';
import { isTestCommand } from './test-runs.js';
import type { BashOutcome, TestRunHandle } from './types.js';
import { recordRun, type VerifierContext } from './verifier-context.js';

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
  const handle: TestRunHandle = { command, treeHash: h.tree, startedAt: new Date().toISOString() };
  ctx.state.reportBefore.set(handle, await ctx.statReport());
  return handle;
}

/** After an agent's test run: its counts (from the report it rewrote, else its output), recorded. */
export async function afterTestRun(ctx: VerifierContext, handle: TestRunHandle, outcome: BashOutcome): Promise<TestRun> {
  let output = outcome.output;
  if (outcome.outputPath) output = await readFile(outcome.outputPath, 'utf8').catch(() => outcome.output);
  // A report the run did not rewrite (same mtime and size as before it) is a previous run's.
  const before = ctx.state.reportBefore.get(handle);
  const after = await ctx.statReport();
  const rewritten = !(before && after && before.mtimeMs === after.mtimeMs && before.size === after.size);
  const c = readCounts({
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
    by: 'agent',
    ...(outcome.outputPath ? { outputPath: outcome.outputPath } : {}),
  };
  return recordRun(ctx, run, handle.treeHash, await ctx.hash());
}
