/**
 * `proofpr run --github-repo OWNER/NAME --issue N`: what the App does for `/agent fix`, driven from the CLI
 * with a token. Reads the issue, posts the status comment, then fixIssue: mirror clone, run, push, PR.
 * The token holder is the requester, so there is no authorization step.
 */
import { Octokit } from '@octokit/rest';
import { proofprHome } from '../../config/home.js';
import type { ModelClient } from '../../model/model-client.js';
import { exitCodeFor } from '../../agent/evidence/types.js';
import { loadRepoConfig } from '../../github/repo-config.js';
import { renderStatusComment } from '../../github/status-comment.js';
import type { Trigger } from '../../github/trigger.js';
import { fixIssue } from '../../usecases/fix-issue.js';
import type { WorkspacePort } from '../../usecases/ports.js';
import type { GitHubPort } from '../../github/port.js';
import { newRunId } from '../../usecases/run-id.js';
import { runTask } from '../../run/run-task.js';
import type { RunTask, RunTaskResult } from '../../run/run-task-types.js';
import { ensureMirror } from '../../workspace/mirror.js';
import { pushBranch } from '../../workspace/push.js';
import { githubTarget } from './github-target.js';
import { createProgressPrinter } from './progress.js';
import type { RunOptions } from './run-options.js';
import { UsageError } from './usage-error.js';

export interface GithubRunDeps {
  env: NodeJS.ProcessEnv;
  model: ModelClient;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  signal?: AbortSignal;
  /** Replaces the mirror + push (tests). */
  workspace?: WorkspacePort;
  runTask?: RunTask;
}

function httpStatus(e: unknown): number | undefined {
  const s = (e as { status?: unknown } | null)?.status;
  return typeof s === 'number' ? s : undefined;
}

/** Returns the exit code of CONTRACT §3 (the evidence's verdict); usage errors throw UsageError. */
export async function githubRun(opts: RunOptions & { github: NonNullable<RunOptions['github']> }, deps: GithubRunDeps): Promise<number> {
  const { env, stderr: err } = deps;
  const target = githubTarget(opts.github.target, env);
  const github: GitHubPort = target.port;
  const n = opts.github.issue;
  const rest = new Octokit({ auth: target.token, userAgent: 'proofpr', ...(target.apiUrl ? { baseUrl: target.apiUrl.replace(/\/+$/, '') } : {}) });
  const r = { owner: target.owner, repo: target.repo };

  let issue;
  try {
    issue = (await rest.issues.get({ ...r, issue_number: n })).data;
  } catch (e) {
    const st = httpStatus(e);
    if (st === 404) throw new UsageError(`--issue ${n}: no such issue in ${target.owner}/${target.repo} (or GITHUB_TOKEN cannot read it)`);
    if (st === 401) throw new UsageError('GITHUB_TOKEN was refused by GitHub (401): check the token and GITHUB_API_URL');
    throw e;
  }
  if (issue.pull_request) throw new UsageError(`--issue ${n}: #${n} is a pull request; give an issue (follow-ups on a PR go through the App or the Action)`);
  if (issue.state !== 'open') err(`note: issue #${n} is ${issue.state}\n`);
  // Installation tokens cannot read /user: then the run has no named requester.
  const me = await rest.users.getAuthenticated().then((x) => x.data, () => undefined);

  let config = opts.config;
  if (!opts.github.configFromFlag) {
    const loaded = await loadRepoConfig(github);
    if (!loaded.ok) throw new UsageError(`invalid .github/proofpr.yml on ${target.owner}/${target.repo}'s default branch:\n${loaded.problems.map((p) => `  - ${p}`).join('\n')}`);
    config = { ...loaded.config, ...opts.limits };
  }
  const defaultBranch = await github.getDefaultBranch();
  const runId = newRunId();
  const home = proofprHome(env);
  const requester = me?.login ?? '';
  const modelId = opts.modelOverride ?? config.model;
  err(`proofpr run ${runId} on ${target.owner}/${target.repo}#${n} (model ${modelId})\n`);
  const status = await github.createComment(n, renderStatusComment({ runId, phase: 'queued', requester: requester || 'proofpr', mode: 'fix', maxTurns: config.max_turns, budgetUsd: config.max_cost_usd }));
  const trigger: Trigger = {
    kind: 'fix',
    target: 'issue',
    via: 'comment',
    owner: target.owner,
    repo: target.repo,
    number: n,
    title: issue.title,
    body: issue.body ?? '',
    commenter: requester,
    ...(me ? { commenterId: me.id } : {}),
    commentCreatedAt: new Date().toISOString(),
    instructions: '',
    deliveryId: `cli-${runId}`,
    defaultBranch,
  };
  const progress = createProgressPrinter((l) => err(`${l}\n`));
  const run = deps.runTask ?? runTask;
  let last: RunTaskResult | undefined;
  const outcome = await fixIssue(
    { runId, trigger, config, statusCommentId: status.id, mode: 'fix', ...(deps.signal ? { signal: deps.signal } : {}) },
    {
      github,
      workspace: deps.workspace ?? { ensureMirror, pushBranch },
      runTask: async (i) =>
        (last = await run({
          ...i,
          onEvent: (ev) => {
            i.onEvent?.(ev);
            progress(ev);
          },
        })),
      modelFactory: () => deps.model,
      runs: { update: () => undefined },
      home,
      ...(opts.modelOverride ? { modelOverride: opts.modelOverride } : {}),
    },
  );
  err(`status comment: ${status.url}\n`);
  if (last) err(`run folder: ${home}/runs/${runId}\n`);
  err(`${outcome.verdict}${outcome.prUrl ? ` → ${outcome.prUrl}` : outcome.verdict === 'error' ? ' (the status comment says what failed)' : ''}\n`);
  if (opts.json) {
    if (last) deps.stdout(`${JSON.stringify(last.evidence)}\n`);
  } else if (outcome.prUrl) deps.stdout(`${outcome.prUrl}\n`);
  // 'error' without an error verdict means publishing failed (the status comment says why): internal error.
  if (outcome.verdict === 'error') return last?.evidence.verdict === 'error' ? exitCodeFor('error') : 1;
  return exitCodeFor(last?.evidence.verdict ?? 'error');
}
