/**
 * A direct task (`prompt` input, e.g. workflow_dispatch): runTask on the checkout, then the verified commit
 * (or, like fixIssue, the WIP commit) is pushed and a PR opened when verified or `pr.on_unverified: draft_pr`.
 */
import { join } from 'node:path';
import type { RepoConfig } from '../../config/repo-config.js';
import type { ModelClient } from '../../model/model-client.js';
import { sanitizeText } from '../../github/sanitize.js';
import { upsertPullRequest } from '../../github/pull-request.js';
import { promptBranch } from '../../usecases/branch-name.js';
import { newRunId } from '../../usecases/run-id.js';
import { recordPullRequest } from '../../usecases/record-pr.js';
import type { WorkspacePort } from '../../usecases/ports.js';
import type { GitHubPort } from '../../github/port.js';
import type { RunTask } from '../../run/run-task-types.js';
import type { ActionContext } from './context.js';
import type { ActionResult } from './result.js';

export interface PromptFlowDeps {
  github: GitHubPort;
  workspace: Pick<WorkspacePort, 'pushBranch'>;
  model: ModelClient;
  runTask: RunTask;
  modelId: string;
  evidencePath: (absolute: string) => string;
}

export async function promptFlow(ctx: ActionContext, config: RepoConfig, prompt: string, deps: PromptFlowDeps): Promise<ActionResult> {
  const { github } = deps;
  const runId = newRunId();
  const branch = promptBranch(prompt, runId);
  const clean = sanitizeText(prompt);
  const title = (clean.split('\n')[0] ?? '').slice(0, 100) || 'proofpr task';
  const res = await deps.runTask({
    repoDir: ctx.workspace,
    baseRef: 'HEAD',
    branch,
    task: { kind: 'prompt', title, body: clean },
    config,
    model: deps.model,
    modelId: deps.modelId,
    mode: 'fix',
    runId,
    runDir: join(ctx.home, 'runs', runId),
    worktreesDir: join(ctx.home, 'worktrees'),
    repoFullName: `${github.owner}/${github.repo}`,
  });
  const ev = res.evidence;
  const verified = ev.verdict === 'verified' && res.headSha !== undefined && !res.wip;
  let prUrl = '';
  let prNumber = '';
  let pushed = false;
  if (res.headSha && (verified || config.pr.wip_commit)) {
    const access = await github.gitAccess();
    await deps.workspace.pushBranch({
      repoDir: ctx.workspace,
      remoteUrl: access.url,
      branch,
      token: access.token,
      expectedRemoteSha: null,
      ownBranch: true,
      sha: res.headSha,
    });
    pushed = true;
  }
  if (pushed && (verified || config.pr.on_unverified === 'draft_pr')) {
    const base = ctx.refBranch ?? (await github.getDefaultBranch());
    const pr = await upsertPullRequest(github, {
      branch,
      base,
      title: verified ? title : `[unverified] ${title}`,
      body: res.summaryMd,
      draft: verified ? config.pr.draft : true,
      labels: config.pr.labels,
    });
    prUrl = pr.url;
    prNumber = String(pr.number);
    await recordPullRequest(res.runDir, ev, pr);
  }
  return {
    exitCode: res.exitCode,
    outputs: {
      verdict: ev.verdict,
      branch: pushed ? branch : '',
      pr_number: prNumber,
      pr_url: prUrl,
      evidence_path: deps.evidencePath(join(res.runDir, 'evidence.json')),
    },
    summaryMd: res.summaryMd,
    message: `prompt task: ${ev.verdict} (${ev.reason})${prUrl ? ` → ${prUrl}` : pushed ? ` → branch ${branch}` : ''}`,
  };
}
