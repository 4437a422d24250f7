/**
 * `verify.pull_requests: true` (CONTRACT §11): every pull request opened, reopened or pushed to, whoever
 * opened it and from whichever fork, is verified with no model (`proofpr verify`), and the check run
 * `proofpr/verified` goes on its head sha. The config is read from the base branch (a pull request cannot
 * switch its own check on or off). The webhook only starts the verification: it runs after the answer,
 * one at a time in this process (verifications of one repository's pushes queue behind each other).
 */
import { join } from 'node:path';
import type { GitHubPort } from '../../github/port.js';
import { loadRepoConfig } from '../../github/repo-config.js';
import { newRunId } from '../../usecases/run-id.js';
import { postVerifyFailure, verifyPullRequest } from '../../usecases/verify/verify-change.js';

export const PULL_REQUEST_EVENTS = ['pull_request.opened', 'pull_request.reopened', 'pull_request.synchronize'] as const;

/** The pull request a `pull_request` webhook is about. */
export interface PullRequestRef {
  number: number;
  headSha: string;
  baseRef: string;
}

/** Verifies one pull request and posts its check; resolves when it is done (never rejects: failures are its own to report). */
export type PullRequestVerifier = (github: GitHubPort, pr: PullRequestRef) => Promise<void>;

export type PullRequestOutcome = 'off' | 'invalid-config' | 'started' | 'not-a-pull-request';

function pullRequestOf(payload: unknown): PullRequestRef | undefined {
  const pr = (payload as { pull_request?: { number?: unknown; head?: { sha?: unknown }; base?: { ref?: unknown } } }).pull_request;
  if (!pr || typeof pr.number !== 'number' || typeof pr.head?.sha !== 'string' || typeof pr.base?.ref !== 'string') return undefined;
  return { number: pr.number, headSha: pr.head.sha, baseRef: pr.base.ref };
}

/**
 * The decision for one `pull_request` webhook: with the base branch's `verify.pull_requests` on, the
 * verification is started (not awaited: `started` is returned at once, `done` resolves when it ends).
 */
export async function onPullRequest(
  payload: unknown,
  github: GitHubPort,
  verify: PullRequestVerifier,
): Promise<{ outcome: PullRequestOutcome; done?: Promise<void> }> {
  const pr = pullRequestOf(payload);
  if (!pr) return { outcome: 'not-a-pull-request' };
  const loaded = await loadRepoConfig(github, pr.baseRef);
  if (!loaded.ok) return { outcome: 'invalid-config' };
  if (!loaded.config.verify.pull_requests) return { outcome: 'off' };
  return { outcome: 'started', done: verify(github, pr) };
}

/** Runs each verification after the previous one ended (one at a time in this process). */
export function serialVerifier(run: PullRequestVerifier): PullRequestVerifier {
  let last: Promise<void> = Promise.resolve();
  return (github, pr) => {
    const next = last.then(() => run(github, pr));
    last = next;
    return next;
  };
}

/**
 * The App's verifier: a run folder under `<home>/runs/<run-id>` like every run's, the worktree under
 * `<home>/worktrees`, the check posted on the head. A verification that could not start (the fetch
 * failed, the config is invalid) still answers on the head: a failed check saying why.
 */
export function appPullRequestVerifier(home: string, log: { warn: (o: object, m: string) => void }): PullRequestVerifier {
  return async (github, pr) => {
    const runId = newRunId();
    try {
      await verifyPullRequest(
        github,
        { number: pr.number, headSha: pr.headSha, post: true },
        { runId, runDir: join(home, 'runs', runId), worktreesDir: join(home, 'worktrees') },
      );
    } catch (e) {
      const why = (e as Error).message;
      log.warn({ repo: `${github.owner}/${github.repo}`, pr: pr.number, err: why }, 'pull request not verified');
      await postVerifyFailure(github, pr.headSha, why);
    }
  };
}
