/**
 * issue_comment / issues (labeled) / pull_request_review / pull_request_review_comment: the one intake (acceptRequest, no run state: the workflow run is the
 * state) with the checkout's config, then the accepted run inline: fixIssue or followUpPr over the checkout.
 */
import { join } from 'node:path';
import type { RepoConfig } from '../../config/repo-config.js';
import type { ModelClient } from '../../model/model-client.js';
import type { GitHubPort } from '../../github/port.js';
import { fixIssue } from '../../usecases/fix-issue.js';
import { followUpPr } from '../../usecases/follow-up-pr.js';
import { acceptRequest } from '../../usecases/accept-request.js';
import { newRunId } from '../../usecases/run-id.js';
import { runCiFixRounds } from '../../usecases/ci-fix-round.js';
import { realClock, type Clock } from '../../usecases/watch-ci.js';
import { logger } from '../../log.js';
import type { UsecaseDeps } from '../../usecases/ports.js';
import type { RunTask } from '../../run/run-task-types.js';
import { exitCodeFor } from '../../agent/evidence/types.js';
import type { ActionContext } from './context.js';
import { checkoutWorkspace } from '../shared/checkout-workspace.js';
import { skipped, type ActionResult } from './result.js';
import type { Heartbeat } from '../shared/heartbeat.js';
import type { PushToken } from './push-token.js';
import { actionCiWatch } from './ci-step.js';
import { renderCiSection } from '../../agent/evidence/ci-md.js';
import type { CiEvidence } from '../../usecases/ci-types.js';

export interface IssueFlowDeps {
  github: GitHubPort;
  model: ModelClient;
  runTask: RunTask;
  modelId: string;
  evidencePath: (absolute: string) => string;
  clock?: Clock;
  /** Which token pushes (asked only after a push): names the likely cause when no CI run appears. */
  pushToken: () => Promise<PushToken>;
  heartbeat: Heartbeat;
  log: (line: string) => void;
}

const log = logger('action');

export async function issueFlow(ctx: ActionContext, config: RepoConfig, deps: IssueFlowDeps): Promise<ActionResult> {
  const { github } = deps;
  const acc = await acceptRequest(
    { kind: 'event', name: ctx.eventName, deliveryId: ctx.runKey, payload: ctx.payload },
    { github, loadConfig: async () => ({ ok: true, config }), newRunId: () => newRunId() },
  );
  if (acc.outcome !== 'accepted') return skipped(acc.why);
  const { run } = acc;
  const t = run.trigger;
  const usecaseDeps: UsecaseDeps = {
    github,
    workspace: checkoutWorkspace(ctx.workspace, { fetchBranches: t.target === 'pr' && t.headRef ? [t.headRef] : [] }),
    runTask: deps.runTask,
    modelFactory: () => deps.model,
    runs: { update: () => undefined },
    home: ctx.home,
    modelOverride: deps.modelId,
  };
  const input = {
    runId: run.runId,
    trigger: { ...t, defaultBranch: t.defaultBranch ?? ctx.refBranch ?? (await github.getDefaultBranch()) },
    config,
    statusCommentId: run.statusCommentId,
  };
  const outcome =
    run.mode === 'follow-up' ? await followUpPr(input, usecaseDeps) : await fixIssue({ ...input, mode: run.mode }, usecaseDeps);
  // A bounded wait in the step: what the repository's CI says about the pushed commit (ci.wait_min);
  // when it failed, up to ci.fix_rounds follow-up runs on the same branch, each watched again.
  deps.heartbeat.idle();
  let ci: CiEvidence | undefined;
  if (outcome.published) {
    const branch = outcome.branch;
    const ciDeps = { ...usecaseDeps, workspace: checkoutWorkspace(ctx.workspace, { fetchBranches: [branch] }) };
    const token = await deps.pushToken();
    const watch = actionCiWatch(config, {
      github,
      clock: deps.clock ?? realClock,
      token,
      heartbeat: deps.heartbeat,
      log: deps.log,
    });
    ci = await runCiFixRounds(
      outcome.published,
      { trigger: input.trigger, config, newRunId: () => newRunId() },
      { ...ciDeps, watch },
    ).catch((e: unknown) => (log.warn({ err: (e as Error).message }, 'CI watch failed'), undefined));
  }

  const res = outcome.run;
  const plan = outcome.verdict === 'plan';
  const verdict = res?.evidence.verdict ?? (plan ? 'verified' : 'error');
  const pr =
    outcome.pr ??
    (t.target === 'pr' ? { number: t.number, url: github.htmlUrl(t.number).replace(/\/issues\/(\d+)$/, '/pull/$1') } : undefined);
  return {
    exitCode: plan ? 0 : outcome.verdict === 'error' && !res ? 1 : exitCodeFor(verdict),
    outputs: {
      verdict: plan ? 'plan' : verdict,
      // Only verified work is pushed to a branch; unverified work is under its WIP ref (named in the comment).
      branch: outcome.pr ? outcome.branch : '',
      pr_number: pr ? String(pr.number) : '',
      pr_url: pr?.url ?? '',
      evidence_path: res ? deps.evidencePath(join(res.runDir, 'evidence.json')) : '',
    },
    summaryMd: `${res?.summaryMd ?? `proofpr ${outcome.verdict}: see the status comment ${run.statusCommentUrl}\n`}${ci ? `\n${renderCiSection(ci)}\n` : ''}`,
    message: `${t.target} #${t.number}: ${verdict}${outcome.pr ? ` → ${outcome.pr.url}` : ''}${outcome.wipRef ? ` → work kept at ${outcome.wipRef}` : ''}${ci ? ` (CI ${ci.state})` : ''}`,
  };
}
