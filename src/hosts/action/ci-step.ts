/**
 * The Action's CI wait after a verified push, as GitHub runs CI now (since 2026-06-11 a pull request the
 * workflow's GITHUB_TOKEN opened starts its pull_request workflows, held until someone with write access
 * approves them): the usual watch (usecases/watch-ci.ts), whatever the token. A run held for approval is
 * `awaiting-approval` at the first look, a repository with no workflow on pull requests is `not-run`
 * before any wait; with the workflow token, runs that never appear end the wait after a short grace
 * period (they appear within seconds when they come at all). A heartbeat line while it lasts.
 */
import type { RepoConfig } from '../../config/repo-config.js';
import type { GitHubPort } from '../../github/port.js';
import type { CiEvidence } from '../../usecases/ci-types.js';
import { ciAfterPush } from '../../usecases/ci-after-push.js';
import type { PublishedRun } from '../../usecases/publish-ci.js';
import type { Clock } from '../../usecases/watch-ci.js';
import type { Heartbeat } from '../shared/heartbeat.js';
import type { PushToken } from './push-token.js';

/** How long a push made with the workflow token waits for its first workflow run to appear. */
export const WORKFLOW_TOKEN_GRACE_MS = 2 * 60_000;

export interface ActionCiDeps {
  github: Pick<GitHubPort, 'ci' | 'updatePullRequest' | 'createCheckRun' | 'updateComment'>;
  clock: Clock;
  token: PushToken;
  heartbeat: Heartbeat;
  log: (line: string) => void;
}

/** The `watch` runCiFixRounds calls for each published run; it also remembers the last CI answer. */
export function actionCiWatch(config: Pick<RepoConfig, 'ci'>, deps: ActionCiDeps): (p: PublishedRun) => Promise<CiEvidence | undefined> {
  return async (p) => {
    if (!deps.github.ci || config.ci.wait_min <= 0) return undefined;
    const sha = p.sha.slice(0, 12);
    deps.log(`waiting for CI on ${sha} (ci.wait_min: ${config.ci.wait_min}; ${deps.token.why})`);
    deps.heartbeat.step(`waiting for CI on ${sha}`);
    try {
      const result = await ciAfterPush(p, config, {
        github: deps.github,
        clock: deps.clock,
        pushedByAction: deps.token.workflowToken,
        ...(deps.token.workflowToken ? { graceMs: Math.min(WORKFLOW_TOKEN_GRACE_MS, config.ci.wait_min * 60_000) } : {}),
      });
      if (result) deps.heartbeat.print(`CI on ${sha}: ${result.state}${result.cause ? ` (${result.cause})` : ''}`);
      return result;
    } finally {
      deps.heartbeat.idle();
    }
  };
}
