import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { RunSettings } from '../../settings.js';
import type { ExecPort } from '../../../workspace/exec-port.js';
import type { TestCase, TestRun, UntestedHunk } from '../../events.js';
import { selectionOf } from '../test-results/observe/selection.js';
import { harnessTestRun } from '../test-runs/harness-run.js';
import { withPristineCheckout } from '../test-runs/pristine-checkout.js';
import { diffHunks, hunkRange, revertHunks, type Hunk } from './diff-hunks.js';

export interface UntestedHunksOptions {
  root: string;
  gitDir?: string;
  baseSha: string;
  /** The head commit (the tested commit): each reversion runs on a clean checkout of it. */
  headSha: string;
  /** The changed files whose hunks are judged: the shipped code (never the tests). */
  files: readonly string[];
  config: Pick<RunSettings, 'test'>;
  exec: ExecPort;
  scratchDir: string;
  /** At most this many reversion runs (verify.hunk_runs); hunks are grouped by file, then files together, to fit. */
  maxRuns: number;
  /** The head's own run of the test command (the final run): what a reversion's run is held against. */
  headRun: TestRun;
  /** Tests known to be flaky: their outcome is not a notice. */
  flaky?: readonly string[];
  /**
   * The tests each reversion runs when not the whole command: the head's tests in the test files it added
   * or changed (testsOfChangedFiles); empty or absent, the whole command runs.
   */
  select?: readonly TestCase[];
  /** Each reversion run's full output goes to `<outputDir>/untested-hunk-run-<n>.txt`. */
  outputDir?: string;
  signal?: AbortSignal;
  logger?: Logger;
}

export interface UntestedHunksResult {
  /** The hunks whose reversion no test noticed. */
  hunks: UntestedHunk[];
  /** Reversion runs made (at most maxRuns). */
  runs: number;
  /** Hunks judged. */
  checked: number;
  /** What one run reverted: one hunk, one file's hunks, or several files' hunks. */
  grouped: 'hunk' | 'file' | 'files';
  /** Which tests judged: the selected ones (a listed hunk's run was narrowed to them) or all the command runs. */
  scope: 'changed tests' | 'all tests';
}

/** The hunks as at most `max` groups: one hunk each, else one file each, else files spread over `max` groups. */
export function groupHunks(hunks: readonly Hunk[], max: number): { groups: Hunk[][]; grouped: UntestedHunksResult['grouped'] } {
  if (hunks.length <= max) return { groups: hunks.map((h) => [h]), grouped: 'hunk' };
  const byFile = new Map<string, Hunk[]>();
  for (const h of hunks) byFile.set(h.file, [...(byFile.get(h.file) ?? []), h]);
  const files = [...byFile.values()];
  if (files.length <= max) return { groups: files, grouped: 'file' };
  const groups: Hunk[][] = Array.from({ length: max }, () => []);
  files.forEach((f, i) => groups[Math.floor((i * max) / files.length)]?.push(...f));
  return { groups, grouped: 'files' };
}

const outcomes = (run: TestRun, skip: ReadonlySet<string>): Map<string, string> =>
  new Map((run.tests ?? []).filter((t) => !skip.has(t.id)).map((t) => [t.id, t.outcome]));

/** True when the run reported no test but `selected` as run (a narrowed run lists the others skipped, or not at all). */
export const ranOnly = (run: TestRun, selected: readonly string[]): boolean => {
  const ids = new Set(selected);
  return (run.tests ?? []).every((t) => ids.has(t.id) || t.outcome === 'skipped');
};

/**
 * Whether a run noticed the reversion: it passed where the head's run failed or the other way round, its
 * counts could not be read where the head's could (the code no longer loads), a test's outcome differs by
 * id (a test missing or new counts), or, without ids, the counts differ. Flaky tests' outcomes are no notice.
 */
export function noticed(head: TestRun, reverted: TestRun, flaky: readonly string[] = [], selected: readonly string[] = []): boolean {
  if ((head.exitCode === 0) !== (reverted.exitCode === 0)) return true;
  if ((head.counts === null) !== (reverted.counts === null)) return true;
  const skip = new Set(flaky);
  if (selected.length && head.tests?.length && reverted.tests && ranOnly(reverted, selected)) {
    // A narrowed run: the selected tests' outcomes decide (one it did not report could not run: noticed).
    const a = outcomes(head, skip);
    const b = outcomes(reverted, skip);
    return selected.some((id) => !skip.has(id) && a.has(id) && b.get(id) !== a.get(id));
  }
  if (head.tests?.length && reverted.tests?.length) {
    const a = outcomes(head, skip);
    const b = outcomes(reverted, skip);
    if (a.size !== b.size) return true;
    for (const [id, o] of a) if (b.get(id) !== o) return true;
    return false;
  }
  const [x, y] = [head.counts, reverted.counts];
  return x !== null && y !== null && (x.passed !== y.passed || x.failed !== y.failed || x.total !== y.total);
}

/** One group reverted on a clean checkout of the head, the test command run there: the run. */
async function revertedRun(opts: UntestedHunksOptions, group: readonly Hunk[], n: number): Promise<TestRun> {
  const command = opts.config.test.command ?? '';
  const { run } = await withPristineCheckout(
    {
      root: opts.root,
      ...(opts.gitDir ? { gitDir: opts.gitDir } : {}),
      sha: opts.headSha,
      scratchDir: opts.scratchDir,
      ...(opts.logger ? { logger: opts.logger } : {}),
    },
    async (dir) => {
      for (const file of new Set(group.map((h) => h.file))) {
        const path = join(dir, file);
        await writeFile(
          path,
          revertHunks(
            await readFile(path, 'utf8'),
            group.filter((h) => h.file === file),
          ),
        );
      }
      return harnessTestRun({
        cwd: dir,
        command,
        config: opts.config,
        exec: opts.exec,
        scratchDir: opts.scratchDir,
        // Not a test_run of the evidence: the head's tests on the head with this group reverted.
        kind: 'final',
        treeHash: '',
        commit: opts.headSha,
        ...(opts.outputDir ? { outputFile: join(opts.outputDir, `untested-hunk-run-${n}.txt`) } : {}),
        ...(opts.select?.length ? { select: selectionOf(opts.select) } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
    },
  );
  return run;
}

/**
 * The changed code no test exercises (issue 40): every hunk of `files` between the base and the head is
 * reverted alone (or with its file's, or with other files', to stay within `maxRuns` runs) on a clean
 * checkout of the head, and the test command runs there, narrowed to `select` (the tests the change added
 * or changed) where the runner allows, else whole; a hunk whose reversion no test notices (noticed: same
 * exit status, the same outcome for every test id, or every selected one) is listed. A run that cannot
 * start counts as noticed (nothing is claimed). Never throws; never a verdict.
 */
export async function untestedHunks(opts: UntestedHunksOptions): Promise<UntestedHunksResult> {
  const none = { hunks: [], runs: 0, checked: 0, grouped: 'hunk' as const, scope: 'all tests' as const };
  if (opts.maxRuns <= 0 || opts.config.test.command === undefined) return none;
  const all = await diffHunks({
    root: opts.root,
    ...(opts.gitDir ? { gitDir: opts.gitDir } : {}),
    base: opts.baseSha,
    head: opts.headSha,
    files: opts.files,
  });
  if (all.length === 0) return none;
  const { groups, grouped } = groupHunks(all, opts.maxRuns);
  const hunks: UntestedHunk[] = [];
  const selected = (opts.select ?? []).map((t) => t.id);
  let narrowed = false;
  let runs = 0;
  for (const group of groups) {
    if (opts.signal?.aborted) break;
    runs++;
    const run = await revertedRun(opts, group, runs).catch((e: Error) => {
      opts.logger?.warn({ err: e.message }, 'untested hunks: a reversion could not run');
      return undefined;
    });
    if (run && run.exitCode !== null && !noticed(opts.headRun, run, opts.flaky, selected)) {
      hunks.push(...group.map(hunkRange));
      // A listed hunk judged by a narrowed run: only the changed tests' silence is claimed.
      if (selected.length && ranOnly(run, selected)) narrowed = true;
    }
  }
  return { hunks, runs, checked: all.length, grouped, scope: narrowed ? 'changed tests' : 'all tests' };
}
