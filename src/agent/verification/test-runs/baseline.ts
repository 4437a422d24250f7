import { join } from 'node:path';
import type { Logger } from 'pino';
import type { RunSettings } from '../../settings.js';
import type { ExecPort } from '../../../workspace/exec-port.js';
import type { TestCounts, TestRun } from '../../events.js';
import { git } from '../../../workspace/git.js';
import { flakyReruns, settledHarnessRun } from './flaky-reruns.js';
import type { FlakyTest } from '../../events.js';
import { withPristineCheckout } from './pristine-checkout.js';

export interface Baseline {
  run: TestRun;
  counts: TestCounts | null;
  /** passed + failed (0 when the counts are unknown). */
  executed: number;
  /** Every test id the report named, with its outcome on the base. */
  tests: NonNullable<TestRun['tests']>;
  failingIds: string[];
  /** True when the counts came from the runner's report (known), false when they could not be read. */
  countsKnown: boolean;
  /** Why counts are unknown (the fix to name), when they are. */
  note?: string;
  /** Base tests that both passed and failed on the base (run again after a failure): never in failingIds. */
  flaky?: FlakyTest[];
}

export interface BaselineOptions {
  /** The run's worktree (at the base commit, or later: only the commit is checked out). */
  root: string;
  gitDir?: string;
  baseSha: string;
  config: Pick<RunSettings, 'test' | 'verify'>;
  exec: ExecPort;
  /** Writable inside the sandbox (the exec's TMPDIR). */
  scratchDir: string;
  /** The run folder: the full output goes to `<runDir>/tool-output/baseline-test-run.txt`. */
  runDir?: string;
  signal?: AbortSignal;
  /** Check out without registering a worktree in the repository (see PristineOptions.standalone). */
  standalone?: boolean;
  logger?: Logger;
}

/** The tree of a commit, read in a checkout of its repository; '' when git cannot tell. */
export async function commitTree(cwd: string, sha: string): Promise<string> {
  const r = await git(['rev-parse', `${sha}^{tree}`], { cwd }).catch(() => undefined);
  return r?.stdout.trim() ?? '';
}

/**
 * The baseline (readiness check, red→green and "no test lost"): `test.command` on a clean checkout
 * of the base commit, in the same sandbox and environment as the agent, with the runner's report
 * asked for by the harness. Returns counts, every test id and the failing ids. A red base is a
 * result, not an error; undefined counts (`countsKnown: false`) come with the reason in `note`.
 */
export async function runBaseline(opts: BaselineOptions): Promise<Baseline> {
  const command = opts.config.test.command;
  if (command === undefined) throw new Error('runBaseline needs test.command (configured or detected)');
  const { run } = await withPristineCheckout(
    {
      root: opts.root,
      ...(opts.gitDir ? { gitDir: opts.gitDir } : {}),
      sha: opts.baseSha,
      scratchDir: opts.scratchDir,
      ...(opts.standalone ? { standalone: true } : {}),
      ...(opts.logger ? { logger: opts.logger } : {}),
    },
    async (dir) =>
      settledHarnessRun(
        {
          cwd: dir,
          command,
          config: opts.config,
          exec: opts.exec,
          scratchDir: opts.scratchDir,
          kind: 'baseline',
          // A clean checkout of the base commit: its tree is the commit's (CONTRACT §5).
          treeHash: await commitTree(dir, opts.baseSha),
          commit: opts.baseSha,
          ...(opts.runDir ? { outputFile: join(opts.runDir, 'tool-output', 'baseline-test-run.txt') } : {}),
          ...(opts.signal ? { signal: opts.signal } : {}),
        },
        flakyReruns(opts.config),
      ),
  );
  const tests = run.tests ?? [];
  const flaky = new Set((run.flaky ?? []).map((f) => f.test));
  const c = run.counts;
  return {
    run,
    counts: c,
    executed: c ? c.passed + c.failed : 0,
    tests,
    failingIds: tests.filter((t) => t.outcome === 'failed' && !flaky.has(t.id)).map((t) => t.id),
    countsKnown: c !== null,
    ...(run.note ? { note: run.note } : {}),
    ...(run.flaky?.length ? { flaky: run.flaky } : {}),
  };
}
