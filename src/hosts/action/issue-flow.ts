/**
 * issue_comment / issues (labeled): the App's trigger parsing and authorization (the collaborator
 * permission API with the step's token), then the same usecases (fixIssue, followUpPr) over the checkout.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RepoConfig } from '../../config/repo-config.js';
import type { ModelClient } from '../../model/model-client.js';
import { parseEvent } from '../../github/event.js';
import { toTrigger } from '../../github/trigger.js';
import { authorize } from '../../github/authorize.js';
import { reactionTargetOf } from '../../github/reaction-endpoint.js';
import { FORK_REPLY, prOwnership, pullRequestFacts } from '../../usecases/pr-ownership.js';
import { renderStatusComment } from '../../github/status-comment.js';
import { fixIssue } from '../../usecases/fix-issue.js';
import { followUpPr } from '../../usecases/follow-up-pr.js';
import { newRunId } from '../../usecases/run-id.js';
import type { UsecaseDeps } from '../../usecases/ports.js';
import type { GitHubPort } from '../../github/port.js';
import type { RunTask, RunTaskResult } from '../../run/run-task-types.js';
import { exitCodeFor } from '../../agent/evidence/types.js';
import type { ActionContext } from './context.js';
import { actionWorkspace } from './workspace-port.js';
import { prNumberOf, skipped, type ActionResult } from './result.js';

export interface IssueFlowDeps {
  github: GitHubPort;
  model: ModelClient;
  runTask: RunTask;
  modelId: string;
  evidencePath: (absolute: string) => string;
}

export async function issueFlow(ctx: ActionContext, config: RepoConfig, deps: IssueFlowDeps): Promise<ActionResult> {
  const { github } = deps;
  const facts = parseEvent(ctx.eventName, ctx.runKey, ctx.payload);
  if (!facts) return skipped(`this ${ctx.eventName} event cannot start a run (a bot, an edit, or not a new comment or label)`);
  const t = toTrigger(facts, { trigger: config.trigger, trigger_label: config.trigger_label });
  if (!t) return skipped(facts.type === 'label' ? `label ${facts.label} is not the configured trigger_label` : `the comment is not a \`${config.trigger}\` command`);
  if (t.kind === 'status' || t.kind === 'cancel') return skipped(`\`${config.trigger} ${t.kind}\` is answered by the proofpr App; in a workflow, cancel the workflow run instead`);
  const auth = await authorize(github, t.commenter, config.authorized);
  if (!auth.ok) {
    return skipped(`${t.commenter} may not trigger runs (repository permission ${auth.roleName ?? auth.permission}; needs one of ${config.authorized.join(', ')})`);
  }
  const pr = t.target === 'pr' ? await pullRequestFacts(github, t) : undefined;
  if (t.target === 'pr') {
    // The Action keeps no state: its own PRs are same-repository proofpr/ branches; a fork's never are.
    const owner = pr ? await prOwnership(pr, `${github.owner}/${github.repo}`) : ({ kind: 'not-ours', why: `PR #${t.number} was not found` } as const);
    if (owner.kind === 'fork') {
      await github.createComment(t.number, FORK_REPLY);
      return skipped(`PR #${t.number} comes from a fork (${owner.headRepo}): proofpr does not push to forks or run their code`);
    }
    if (owner.kind === 'not-ours') return skipped(`PR #${t.number} is not proofpr's own: ${owner.why}`);
  }
  if (t.commentId !== undefined) await github.addReaction(reactionTargetOf(t), 'eyes').catch(() => undefined);

  const runId = newRunId();
  const mode = t.target === 'pr' ? 'follow-up' : t.kind === 'plan' ? 'plan' : 'fix';
  const status = await github.createComment(t.number, renderStatusComment({ runId, phase: 'queued', requester: t.commenter, mode, maxTurns: config.max_turns, budgetUsd: config.max_cost_usd }));
  const fetchBranches = pr ? [pr.headRef] : [];
  let last: RunTaskResult | undefined;
  const usecaseDeps: UsecaseDeps = {
    github,
    workspace: actionWorkspace(ctx.workspace, { fetchBranches }),
    runTask: async (i) => (last = await deps.runTask(i)),
    modelFactory: () => deps.model,
    runs: { update: () => undefined },
    home: ctx.home,
    modelOverride: deps.modelId,
  };
  const input = { runId, trigger: { ...t, defaultBranch: t.defaultBranch ?? ctx.refBranch ?? (await github.getDefaultBranch()) }, config, statusCommentId: status.id };
  const outcome: { verdict: string; branch: string; prUrl?: string } =
    t.target === 'pr' ? await followUpPr(input, usecaseDeps) : await fixIssue({ ...input, mode: t.kind === 'plan' ? 'plan' : 'fix' }, usecaseDeps);

  const runDir = join(ctx.home, 'runs', runId);
  const evidenceFile = join(runDir, 'evidence.json');
  const summaryFile = join(runDir, 'summary.md');
  const summaryMd = existsSync(summaryFile) ? readFileSync(summaryFile, 'utf8') : `proofpr ${outcome.verdict}: see the status comment ${status.url}\n`;
  const verdict = last?.evidence.verdict ?? (outcome.verdict === 'plan' ? 'verified' : 'error');
  const exitCode = outcome.verdict === 'plan' ? 0 : outcome.verdict === 'error' && !last ? 1 : exitCodeFor(verdict);
  return {
    exitCode,
    outputs: {
      verdict: outcome.verdict === 'plan' ? 'plan' : verdict,
      branch: last?.headSha ? outcome.branch : '',
      pr_number: t.target === 'pr' ? String(t.number) : prNumberOf(outcome.prUrl),
      pr_url: outcome.prUrl ?? (t.target === 'pr' ? github.htmlUrl(t.number).replace(/\/issues\/(\d+)$/, '/pull/$1') : ''),
      evidence_path: existsSync(evidenceFile) ? deps.evidencePath(evidenceFile) : '',
    },
    summaryMd,
    message: `${t.target} #${t.number}: ${verdict}${outcome.prUrl ? ` → ${outcome.prUrl}` : ''}`,
  };
}
