/**
 * A sweep's baseline: on the base commit, before the agent touches anything, in a throwaway detached
 * worktree: the run's commands (configured or detected), setup.command with network, then the test command
 * once through the same exec port (sandbox, scrubbed env, timeout) as the run itself.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RepoConfig } from '../config/repo-config.js';
import type { TestRun } from '../agent/events.js';
import { executed } from '../agent/evidence/text.js';
import type { CommandChoice } from '../detect/resolve-commands.js';
import { checkReadiness } from '../run/check-readiness.js';
import { resolveRunCommands } from '../run/resolve-run-commands.js';
import { runSetup } from '../run/run-setup.js';
import { createExec, type ExecOptions } from '../workspace/exec.js';
import { git, resolveCommit } from '../workspace/git.js';
import { logger } from '../log.js';

const log = logger('sweep');

export interface BaselineResult {
  /** The test run on the base; absent when it could not be taken (see `problem`). */
  run?: TestRun;
  baseSha: string;
  test?: CommandChoice;
  setup?: CommandChoice;
  /** Why the base could not be measured (no test command, setup failed, counts unreadable): the sweep stops. */
  problem?: string;
}

export type BaselineRunner = (opts: {
  repoDir: string;
  baseRef: string;
  config: RepoConfig;
  runDir: string;
  signal?: AbortSignal;
}) => Promise<BaselineResult>;

/** Runs setup and the test command on `baseRef` of `repoDir`. */
export const runBaseline: BaselineRunner = async (opts) => {
  const baseSha =
    (await resolveCommit(opts.repoDir, opts.baseRef)) ?? (await resolveCommit(opts.repoDir, `refs/remotes/origin/${opts.baseRef}`));
  if (!baseSha) throw new Error(`the base '${opts.baseRef}' does not exist in ${opts.repoDir}`);
  const tmp = await mkdtemp(join(tmpdir(), 'proofpr-baseline-'));
  const wt = join(tmp, 'base');
  let dispose: (() => Promise<void>) | undefined;
  try {
    await git(['worktree', 'add', '--quiet', '--detach', wt, baseSha], { cwd: opts.repoDir });
    const gitDir = (await git(['rev-parse', '--absolute-git-dir'], { cwd: wt })).stdout.trim();
    const cmds = await resolveRunCommands(wt, opts.config);
    const found = { baseSha, ...(cmds.test ? { test: cmds.test } : {}), ...(cmds.setup ? { setup: cmds.setup } : {}) };
    if (!cmds.test) return { ...found, problem: cmds.missing ?? 'no test command: set test.command in .github/proofpr.yml' };
    if (cmds.notReady) return { ...found, problem: cmds.notReady };
    const base: ExecOptions = {
      root: wt,
      runTmp: join(tmp, 'run'),
      sandbox: opts.config.sandbox,
      extraEnvNames: opts.config.env,
      gitDir,
      logger: log,
    };
    if (cmds.setup) {
      const s = await runSetup(cmds.setup, opts.config.setup.timeout_min, base, join(opts.runDir, 'setup.log'));
      if (!s.ok) return { ...found, problem: `the baseline's ${s.reason}` };
    }
    const handle = await createExec(base);
    dispose = handle.dispose;
    const r = await checkReadiness({
      root: wt,
      gitDir,
      config: cmds.config,
      test: cmds.test,
      ...(cmds.installUnavailable ? { skippedInstall: cmds.installUnavailable } : {}),
      exec: handle.exec,
      runDir: opts.runDir,
      baseSha,
      scratchDir: join(tmp, 'run', 'tmp'),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    return r.ready ? { ...found, run: r.baseline } : { ...found, ...(r.baseline ? { run: r.baseline } : {}), problem: r.reason };
  } finally {
    await dispose?.().catch(() => undefined);
    await git(['worktree', 'remove', '--force', wt], { cwd: opts.repoDir }).catch((e: Error) =>
      log.warn({ err: e.message }, 'baseline worktree removal failed'),
    );
    await rm(tmp, { recursive: true, force: true });
    await git(['worktree', 'prune'], { cwd: opts.repoDir }).catch(() => undefined);
  }
};

/** True when the base is already red: a non-zero exit, or failed tests in the counts. */
export function baselineFailed(run: TestRun): boolean {
  return run.exitCode !== 0 || (run.counts !== null && run.counts.failed > 0);
}

/** One line describing the baseline for the summary and the evidence reason. */
export function describeBaseline(b: BaselineResult): string {
  if (!b.run) return `no baseline on the base ${b.baseSha.slice(0, 12)}: ${b.problem ?? 'not run'}`;
  const c = b.run.counts;
  const n = executed(c);
  const counts = c && n !== null ? `${n} executed, ${c.failed} failed` : 'counts unknown';
  const exit = b.run.exitCode === null ? 'killed' : `exit ${b.run.exitCode}`;
  return `\`${b.run.command}\` on the base ${b.baseSha.slice(0, 12)}: ${exit}, ${counts}`;
}
