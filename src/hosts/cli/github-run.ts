/**
 * `proofpr run --github-repo OWNER/NAME --issue N`: what the App does for `/agent fix`, driven from the CLI
 * with a token. Reads the issue, posts the status comment, then fixIssue: mirror clone, run, push, PR.
 * The token holder is the requester, so there is no authorization step.
 */
import { ensureHome, proofprHome } from '../../config/home.js';
import type { ModelClient } from '../../model/model-client.js';
import { exitCodeFor } from '../../agent/evidence/types.js';
import { loadRepoConfig, type LoadedConfig } from '../../github/repo-config.js';
import { fixIssue } from '../../usecases/fix-issue.js';
import type { WorkspacePort } from '../../usecases/ports.js';
import type { GitHubPort, IssueInfo } from '../../github/port.js';
import { acceptRequest } from '../../usecases/accept-request.js';
import { newRunId } from '../../usecases/run-id.js';
import { runTask } from '../../run/run-task.js';
import type { RunTask } from '../../run/run-task-types.js';
import { ensureMirror } from '../../workspace/mirror.js';
import { pushBranch } from '../../workspace/push.js';
import { githubTarget } from './github-target.js';
import { createRunProgress } from './progress.js';
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
  const issue = await readIssue(github, n, `${target.owner}/${target.repo}`);
  if (issue.state !== 'open') err(`note: issue #${n} is ${issue.state}\n`);
  // Installation tokens cannot read /user: then the run has no named requester.
  const me = await github.authenticatedUser();
  const loadConfig = async (): Promise<LoadedConfig> => {
    if (opts.github.configFromFlag) return { ok: true, config: opts.config };
    const loaded = await loadRepoConfig(github);
    if (!loaded.ok)
      throw new UsageError(
        `invalid .github/proofpr.yml on ${target.owner}/${target.repo}'s default branch:\n${loaded.problems.map((p) => `  - ${p}`).join('\n')}`,
      );
    return { ok: true, config: { ...loaded.config, ...opts.limits } };
  };
  const runId = newRunId();
  const acc = await acceptRequest(
    {
      kind: 'issue',
      number: n,
      title: issue.title,
      body: issue.body,
      deliveryId: `cli-${runId}`,
      defaultBranch: await github.getDefaultBranch(),
      ...(me ? { requester: me } : {}),
    },
    { github, loadConfig, newRunId: () => runId },
  );
  if (acc.outcome !== 'accepted') throw new UsageError(acc.why);
  const { trigger, config, statusCommentId, statusCommentUrl } = acc.run;
  const home = ensureHome(proofprHome(env));
  err(`proofpr run ${runId} on ${target.owner}/${target.repo}#${n} (model ${opts.modelOverride ?? config.model})\n`);
  const progress = createRunProgress((l) => err(`${l}\n`), env);
  const run = deps.runTask ?? runTask;
  const outcome = await fixIssue(
    { runId, trigger, config, statusCommentId, mode: 'fix', ...(deps.signal ? { signal: deps.signal } : {}) },
    {
      github,
      workspace: deps.workspace ?? { ensureMirror, pushBranch },
      runTask: (i) => run({ ...i, onEvent: (ev) => (i.onEvent?.(ev), progress.onEvent(ev)) }).finally(() => progress.heartbeat.idle()),
      modelFactory: () => deps.model,
      runs: { update: () => undefined },
      home,
      ...(opts.modelOverride ? { modelOverride: opts.modelOverride } : {}),
    },
  ).finally(() => progress.stop());
  const last = outcome.run;
  err(`status comment: ${statusCommentUrl}\n`);
  if (last) err(`run folder: ${last.runDir}\n`);
  err(
    `${outcome.verdict}${outcome.prUrl ? ` → ${outcome.prUrl}` : outcome.verdict === 'error' ? ' (the status comment says what failed)' : ''}\n`,
  );
  if (opts.json) {
    if (last) deps.stdout(`${JSON.stringify(last.evidence)}\n`);
  } else if (outcome.prUrl) deps.stdout(`${outcome.prUrl}\n`);
  // 'error' without an error verdict means publishing failed (the status comment says why): internal error.
  if (outcome.verdict === 'error') return last?.evidence.verdict === 'error' ? exitCodeFor('error') : 1;
  return exitCodeFor(last?.evidence.verdict ?? 'error');
}

async function readIssue(github: GitHubPort, n: number, full: string): Promise<IssueInfo> {
  let issue: IssueInfo | undefined;
  try {
    issue = await github.getIssue(n);
  } catch (e) {
    if (httpStatus(e) === 401) throw new UsageError('GITHUB_TOKEN was refused by GitHub (401): check the token and GITHUB_API_URL');
    throw e;
  }
  if (!issue) throw new UsageError(`--issue ${n}: no such issue in ${full} (or GITHUB_TOKEN cannot read it)`);
  if (issue.isPullRequest)
    throw new UsageError(`--issue ${n}: #${n} is a pull request; give an issue (follow-ups on a PR go through the App or the Action)`);
  return issue;
}
