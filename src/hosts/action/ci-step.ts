/**
 * The Action's CI wait after a verified push. Pushed with the workflow's GITHUB_TOKEN, no workflow run
 * starts (GitHub's rule), so `ci.state: not-run` is recorded at once with that cause and the fix, unless
 * the config sets ci.wait_min itself (e.g. CI outside Actions reports on the commit). With an App token or
 * a personal token the wait is the usual bounded one, with a heartbeat line while it lasts.
 */
import type { RepoConfig } from '../../config/repo-config.js';
import type { GitHubPort } from '../../github/port.js';
import type { CiEvidence } from '../../usecases/ci-types.js';
import { ciAfterPush } from '../../usecases/ci-after-push.js';
import { publishCi, type PublishedRun } from '../../usecases/publish-ci.js';
import type { Clock } from '../../usecases/watch-ci.js';
import type { Heartbeat } from '../shared/heartbeat.js';
import { WORKFLOW_TOKEN_CAUSE, type PushToken } from './push-token.js';

export interface ActionCiDeps {
  github: Pick<GitHubPort, 'ci' | 'updatePullRequest' | 'createCheckRun' | 'updateComment'>;
  clock: Clock;
  token: PushToken;
  /** ci.wait_min is in the config file (not the default). */
  ciWaitExplicit: boolean;
  heartbeat: Heartbeat;
  log: (line: string) => void;
}

/** The `watch` runCiFixRounds calls for each published run; it also remembers the last CI answer. */
export function actionCiWatch(config: Pick<RepoConfig, 'ci'>, deps: ActionCiDeps): (p: PublishedRun) => Promise<CiEvidence | undefined> {
  return async (p) => {
    const ci = deps.github.ci;
    if (!ci || config.ci.wait_min <= 0) return undefined;
    const sha = p.sha.slice(0, 12);
    if (deps.token.workflowToken && !deps.ciWaitExplicit) {
      const result: CiEvidence = { sha: p.sha, state: 'not-run', checks: [], cause: WORKFLOW_TOKEN_CAUSE };
      deps.log(`CI on ${sha}: not-run (${deps.token.why}; GitHub starts no workflow for its pushes)`);
      await publishCi(result, p, deps.github, ci);
      return result;
    }
    deps.log(`waiting for CI on ${sha} (ci.wait_min: ${config.ci.wait_min}; ${deps.token.why})`);
    deps.heartbeat.step(`waiting for CI on ${sha}`);
    try {
      const result = await ciAfterPush(p, config, { github: deps.github, clock: deps.clock, pushedByAction: deps.token.workflowToken });
      if (result) deps.heartbeat.print(`CI on ${sha}: ${result.state}${result.cause ? ` (${result.cause})` : ''}`);
      return result;
    } finally {
      deps.heartbeat.idle();
    }
  };
}
