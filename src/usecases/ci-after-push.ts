/**
 * After a verified push: watch the repository's CI on that exact sha (ci.wait_min) and report what it
 * said in the evidence, the PR body, the check run and the status comment. Returns the CI evidence, or
 * undefined when watching is off (ci.wait_min: 0) or the port cannot read CI.
 */
import type { RepoConfig } from '../config/repo-config.js';
import { CHECK_NAME } from '../github/check-run.js';
import type { CiEvidence } from './ci-types.js';
import type { GitHubPort } from '../github/port.js';
import { publishCi, type PublishedRun } from './publish-ci.js';
import { watchCi, type Clock } from './watch-ci.js';
import { logger } from '../log.js';

const log = logger('ci-watch');

export interface CiAfterPushDeps {
  github: Pick<GitHubPort, 'ci' | 'updatePullRequest' | 'createCheckRun' | 'updateComment'>;
  clock: Clock;
  /** The Action pushed with the workflow's GITHUB_TOKEN (its runs are held for approval). */
  pushedByAction: boolean;
  /** No check, status or workflow run by then means not-run (watch-ci's default otherwise). */
  graceMs?: number;
  /** Resolves on the next check_suite / check_run / status webhook for the sha (the App). */
  wake?: (sha: string) => Promise<void>;
  signal?: AbortSignal;
}

export async function ciAfterPush(
  run: PublishedRun,
  config: Pick<RepoConfig, 'ci'>,
  deps: CiAfterPushDeps,
): Promise<CiEvidence | undefined> {
  const ci = deps.github.ci;
  if (!ci || config.ci.wait_min <= 0) return undefined;
  const result = await watchCi(
    {
      sha: run.sha,
      waitMin: config.ci.wait_min,
      ownCheckName: CHECK_NAME,
      pushedByAction: deps.pushedByAction,
      changedFiles: run.changedFiles,
      ...(deps.signal ? { signal: deps.signal } : {}),
      ...(deps.graceMs !== undefined ? { graceMs: deps.graceMs } : {}),
      ...(deps.wake ? { wake: () => (deps.wake as (sha: string) => Promise<void>)(run.sha) } : {}),
    },
    { ci, clock: deps.clock },
  );
  // Stopped (shutdown): nothing CI said is known yet, so nothing is published.
  if (!result || deps.signal?.aborted) return undefined;
  log.info({ runId: run.runId, sha: run.sha, state: result.state }, 'CI on the pushed commit');
  await publishCi(result, run, deps.github, ci);
  return result;
}
