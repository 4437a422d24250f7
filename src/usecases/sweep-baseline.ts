/**
 * A sweep's baseline: `test.command` on the base commit, before the agent touches anything, through the
 * same exec port (sandbox, scrubbed env, timeout) as the run itself, in a throwaway detached worktree.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RepoConfig } from '../config/repo-config.js';
import type { TestRun } from '../agent/events.js';
import { runTestCommand } from '../agent/verification/run-test-command.js';
import { executed } from '../agent/evidence/text.js';
import { createExec } from '../workspace/exec.js';
import { git, resolveCommit } from '../workspace/git.js';
import { treeHash } from '../workspace/tree-hash.js';
import { logger } from '../log.js';

const log = logger('sweep');

export interface BaselineResult {
  run: TestRun;
  baseSha: string;
}

export type BaselineRunner = (opts: { repoDir: string; baseRef: string; config: RepoConfig; runDir: string; signal?: AbortSignal }) => Promise<BaselineResult>;

/** Runs test.command on `baseRef` of `repoDir` (config.test.command must be set). */
export const runBaseline: BaselineRunner = async (opts) => {
  const command = opts.config.test.command;
  if (!command) throw new Error('test.command is missing in .github/proofpr.yml (needed for the sweep baseline)');
  const baseSha = (await resolveCommit(opts.repoDir, opts.baseRef)) ?? (await resolveCommit(opts.repoDir, `refs/remotes/origin/${opts.baseRef}`));
  if (!baseSha) throw new Error(`the base '${opts.baseRef}' does not exist in ${opts.repoDir}`);
  const tmp = await mkdtemp(join(tmpdir(), 'proofpr-baseline-'));
  const wt = join(tmp, 'base');
  let dispose: (() => Promise<void>) | undefined;
  try {
    await git(['worktree', 'add', '--quiet', '--detach', wt, baseSha], { cwd: opts.repoDir });
    const handle = await createExec({ root: wt, runTmp: join(tmp, 'run'), sandbox: opts.config.sandbox, extraEnvNames: opts.config.env, logger: log });
    dispose = handle.dispose;
    const { run } = await runTestCommand({
      cwd: wt,
      command,
      config: opts.config,
      exec: handle.exec,
      treeHash: await treeHash(wt),
      outputFile: join(opts.runDir, 'tool-output', 'baseline.txt'),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    return { run, baseSha };
  } finally {
    await dispose?.().catch(() => undefined);
    await git(['worktree', 'remove', '--force', wt], { cwd: opts.repoDir }).catch((e: Error) => log.warn({ err: e.message }, 'baseline worktree removal failed'));
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
  const c = b.run.counts;
  const n = executed(c);
  const counts = c && n !== null ? `${n} executed, ${c.failed} failed` : 'counts unknown';
  const exit = b.run.exitCode === null ? 'killed' : `exit ${b.run.exitCode}`;
  return `\`${b.run.command}\` on the base ${b.baseSha.slice(0, 12)}: ${exit}, ${counts}`;
}
