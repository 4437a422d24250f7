import { join } from 'node:path';
import { isTestFile, testFilePatterns } from '../changes/test-files.js';
import { changedFiles } from '../changes/changed-files.js';
import { classifyCommits, fixFiles } from '../shipped/index.js';
import type { VerifierContext } from '../verifier-context.js';
import type { TestCase, TestRun } from '../../events.js';
import { untestedHunks } from './untested-hunks.js';

/** The shipped code the commit changed (shipped/: from the project's manifests); the changed non-test files when that cannot be read. */
async function shippedChanges(ctx: VerifierContext, sha: string): Promise<string[]> {
  const src = { root: ctx.root, ...ctx.gitDir };
  try {
    return fixFiles(await classifyCommits(src, ctx.opts.baseSha, sha));
  } catch (e) {
    ctx.log.warn(
      { err: (e as Error).message },
      'untested hunks: the shipped-code classifier failed; every changed non-test file is judged',
    );
    const patterns = testFilePatterns(ctx.root);
    return (await changedFiles(ctx.root, ctx.opts.baseSha, sha, ctx.opts.gitDir)).filter((p) => !isTestFile(p, patterns));
  }
}

/**
 * The head's tests in the test files the change added or changed (any changed file that is not shipped
 * code), when the head's run named every test's file; else none, and the reversions run the whole command.
 */
async function changedTests(ctx: VerifierContext, sha: string, headRun: TestRun, shipped: readonly string[]): Promise<TestCase[]> {
  const tests = headRun.tests ?? [];
  if (tests.length === 0 || tests.some((t) => !t.file)) return [];
  const changed = new Set(await changedFiles(ctx.root, ctx.opts.baseSha, sha, ctx.opts.gitDir).catch(() => []));
  for (const f of shipped) changed.delete(f);
  return tests.filter((t) => t.file !== undefined && changed.has(t.file));
}

/**
 * After a final check the gates accepted: the hunks of shipped code no test exercises (untested-hunks.ts),
 * at most `verify.hunk_runs` extra runs of the test command, as an `untested_hunks` event (evidence
 * `untestedHunks`, the PR body's "No test exercises these changes") and a notice with the runs it made.
 * Never a gate: it changes no verdict.
 */
export async function untestedHunksAtFinal(ctx: VerifierContext): Promise<void> {
  const maxRuns = ctx.config.verify?.hunk_runs ?? 0;
  const tested = ctx.state.tested;
  if (maxRuns <= 0 || !tested || ctx.config.test.command === undefined) return;
  const headRun = [...ctx.state.runs].reverse().find((r) => r.by === 'harness' && r.kind === 'final' && r.commit === tested.sha);
  if (!headRun || headRun.exitCode === null) return;
  const files = await shippedChanges(ctx, tested.sha);
  const select = await changedTests(ctx, tested.sha, headRun, files);
  const r = await untestedHunks({
    root: ctx.root,
    ...ctx.gitDir,
    baseSha: ctx.opts.baseSha,
    headSha: tested.sha,
    files,
    config: ctx.config,
    exec: ctx.opts.exec,
    scratchDir: ctx.scratch,
    maxRuns,
    headRun,
    flaky: (headRun.flaky ?? []).map((f) => f.test),
    select,
    outputDir: join(ctx.opts.runDir, 'tool-output'),
    ...(ctx.opts.signal ? { signal: ctx.opts.signal } : {}),
    logger: ctx.log,
  });
  if (r.checked === 0) return;
  ctx.onEvent({ type: 'untested_hunks', hunks: r.hunks, runs: r.runs, checked: r.checked, grouped: r.grouped, scope: r.scope });
  const by = r.grouped === 'hunk' ? 'one hunk' : r.grouped === 'file' ? "one file's hunks" : 'several files';
  const what =
    r.scope === 'changed tests' ? `the ${select.length} test(s) of the test files the change added or changed` : 'the whole test command';
  ctx.onEvent({
    type: 'notice',
    message: `untested hunks: ${r.checked} hunk(s) of shipped code checked in ${r.runs} extra run(s) of ${what} (each reverting ${by}; verify.hunk_runs: ${maxRuns}); ${r.hunks.length} no test noticed`,
  });
}
