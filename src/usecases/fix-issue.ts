/**
 * `/agent fix` (and `/agent plan`) on an issue, from a queued job to a verified PR or an honest comment.
 * Orchestration over ports only: GitHubPort, WorkspacePort, RunTask, ModelFactory, RunRecorder.
 */
import { join } from 'node:path';
import type { RepoConfig } from '../config/repo-config.js';
import type { RunEvent } from '../agent/events.js';
import type { RunTaskResult } from '../run/run-task-types.js';
import type { UsecaseDeps } from './ports.js';
import type { Trigger } from '../github/trigger.js';
import { loadIssueContext } from '../github/issue-context.js';
import { sanitizeText, redactSecrets } from '../github/sanitize.js';
import { issueBranch } from './branch-name.js';
import { recordRunError, runStatus } from './run-status.js';
import type { StatusReporter } from '../github/status-reporter.js';
import { upsertPullRequest } from '../github/pull-request.js';
import { checkRunFor } from '../github/check-run.js';
import { recordPullRequest } from './record-pr.js';
import type { Phase, StatusState } from '../github/status-comment.js';
import { memoryForRun } from '../memory/memory-for-run.js';
import type { PublishedRun } from './publish-ci.js';

/** The facts the CI watch needs about a run whose verified commit was pushed to PR `prNumber`. */
export function publishedRun(
  inp: { runId: string; statusCommentId: number },
  result: RunTaskResult,
  prNumber: number,
  status: StatusState,
): PublishedRun {
  return {
    runId: inp.runId,
    prNumber,
    sha: result.headSha as string,
    evidence: result.evidence,
    summaryMd: result.summaryMd,
    runDir: result.runDir,
    statusCommentId: inp.statusCommentId,
    status: { ...status },
    changedFiles: result.evidence.filesChanged.map((f) => f.path),
  };
}

export interface FixIssueInput {
  runId: string;
  trigger: Trigger;
  config: RepoConfig;
  statusCommentId: number;
  mode: 'fix' | 'plan';
  signal?: AbortSignal;
}

export interface FixIssueOutcome {
  verdict: string;
  branch: string;
  prUrl?: string;
  /** The PR opened or updated (also in evidence.pr). */
  pr?: { number: number; url: string };
  planCommentUrl?: string;
  /** The run itself, when it ran: its evidence (with `pr`), summary and folder. Hosts never read them back from disk. */
  run?: RunTaskResult;
  /** A verified PR was opened or updated: what the CI watch reports on. */
  published?: PublishedRun;
}

/** "octocat <583231+octocat@users.noreply.github.com>" for the Co-authored-by trailer. */
export function coAuthorOf(t: Pick<Trigger, 'commenter' | 'commenterId'>): string {
  const local = t.commenterId !== undefined ? `${t.commenterId}+${t.commenter}` : t.commenter;
  return `${t.commenter} <${local}@users.noreply.github.com>`;
}

/** The model's last text (the plan in plan mode). */
function lastText(events: RunEvent[]): string {
  for (let i = events.length - 1; i >= 0; i--) {
    const ev = events[i];
    if (ev?.type !== 'assistant') continue;
    const text = ev.content
      .flatMap((b) => (b.type === 'text' ? [b.text] : []))
      .join('\n')
      .trim();
    if (text) return text;
  }
  return '';
}

/** The issue comment when no fix could be verified: why, the failed gates, and where the work in progress is. */
function unverifiedComment(
  issue: number,
  reason: string,
  failedGates: readonly { name: string; detail: string }[],
  wip: { branch: string; url: string } | undefined,
): string {
  const lines = [`proofpr could not verify a fix for #${issue}: ${reason}`];
  if (failedGates.length > 0) lines.push('', 'Failed gates:', ...failedGates.map((g) => `- \`${g.name}\`: ${g.detail}`));
  if (wip) lines.push('', `The work in progress is on branch [\`${wip.branch}\`](${wip.url}).`);
  return lines.join('\n');
}

/** Plan mode: the model's last text is posted on the issue as the plan; nothing was committed or pushed. */
async function postPlan(
  inp: FixIssueInput,
  deps: UsecaseDeps,
  status: StatusReporter,
  r: { events: RunEvent[]; result: RunTaskResult; branch: string },
): Promise<FixIssueOutcome> {
  const n = inp.trigger.number;
  const plan = redactSecrets(lastText(r.events)) || '(the model wrote no plan)';
  const posted = await deps.github.createComment(
    n,
    `### Plan for #${n}\n\n${plan}\n\n_Read-only run \`${inp.runId}\`: nothing was committed or pushed._`,
  );
  await status.set({ phase: 'done', verdict: 'plan posted', reason: posted.url }, true);
  await deps.runs.update(inp.runId, { status: 'done', verdict: 'plan' });
  return { verdict: 'plan', branch: r.branch, planCommentUrl: posted.url, run: r.result };
}

/**
 * Pushes the run's commit (when verified, or as WIP when pr.wip_commit), then opens or updates the PR
 * (verified, or a draft when pr.on_unverified says so) with its check run, or comments on the issue why
 * no fix was verified. `prNumber` only for a verified PR (what the CI watch follows).
 */
async function publishIssueWork(
  inp: FixIssueInput,
  deps: UsecaseDeps,
  w: {
    mirrorDir: string;
    branch: string;
    base: string;
    result: RunTaskResult;
    verified: boolean;
    failedGates: readonly { name: string; detail: string }[];
  },
): Promise<{ pushed: boolean; prRef?: { number: number; url: string }; prNumber?: number }> {
  const { github } = deps;
  const { branch, result, verified } = w;
  const t = inp.trigger;
  const cfg = inp.config;
  const ev = result.evidence;
  let pushed = false;
  if (result.headSha && (verified || cfg.pr.wip_commit)) {
    const remoteSha = await github.getBranchSha(branch);
    // A fresh token: the one from the start of the run may have expired during a long run.
    const pushAccess = await github.gitAccess();
    await deps.workspace.pushBranch({
      repoDir: w.mirrorDir,
      remoteUrl: pushAccess.url,
      branch,
      token: pushAccess.token,
      expectedRemoteSha: remoteSha ?? null,
      ownBranch: true,
      ...(result.headSha ? { sha: result.headSha } : {}),
    });
    pushed = true;
    // The ledger, not the name, is what makes this branch proofpr's own for later follow-ups.
    await deps.branches?.recordBranch(`${github.owner}/${github.repo}`, branch, inp.runId);
  }
  if (pushed && (verified || cfg.pr.on_unverified === 'draft_pr')) {
    const title = verified ? sanitizeText(t.title) : `[unverified] ${sanitizeText(t.title)}`;
    const body = `${verified ? 'Fixes' : 'Refs'} #${t.number}\n\n${result.summaryMd}`;
    const pr = await upsertPullRequest(github, {
      branch,
      base: w.base,
      title,
      body,
      draft: verified ? cfg.pr.draft : true,
      labels: cfg.pr.labels,
    });
    const prRef = { number: pr.number, url: pr.url };
    result.evidence = await recordPullRequest(result.runDir, ev, prRef);
    const check = checkRunFor(ev, result.summaryMd);
    await github.createCheckRun({ headSha: result.headSha as string, ...check });
    return { pushed, prRef, ...(verified ? { prNumber: pr.number } : {}) };
  }
  if (!verified) {
    await github.createComment(
      t.number,
      unverifiedComment(t.number, ev.reason, w.failedGates, pushed ? { branch, url: github.branchUrl(branch) } : undefined),
    );
  }
  return { pushed };
}

export async function fixIssue(inp: FixIssueInput, deps: UsecaseDeps): Promise<FixIssueOutcome> {
  const { github, runs } = deps;
  const t = inp.trigger;
  const cfg = inp.config;
  const branch = issueBranch(t.number, t.title);
  const status = runStatus(deps, inp, t.commenter || 'proofpr', inp.mode);

  let phase: Phase = 'preparing';
  await runs.update(inp.runId, { status: 'running' });
  try {
    await status.set({ phase });
    const ctx = await loadIssueContext(github, t, cfg.authorized);
    const access = await github.gitAccess();
    const mirror = await deps.workspace.ensureMirror({ home: deps.home, url: access.url, token: access.token });
    const base = t.defaultBranch ?? (await github.getDefaultBranch());
    const modelId = deps.modelOverride ?? cfg.model;

    phase = 'working';
    await status.set({ phase });
    const events: RunEvent[] = [];
    const result: RunTaskResult = await deps.runTask({
      repoDir: mirror.dir,
      gitToken: access.token,
      baseRef: base,
      branch: inp.mode === 'plan' ? `${branch}-plan` : branch,
      task: {
        kind: 'issue',
        issue: t.number,
        title: sanitizeText(t.title),
        body: ctx.body,
        ...(t.instructions ? { instructions: sanitizeText(t.instructions) } : {}),
      },
      config: cfg,
      model: deps.modelFactory({ modelId }),
      modelId,
      mode: inp.mode,
      runId: inp.runId,
      runDir: join(deps.home, 'runs', inp.runId),
      worktreesDir: join(deps.home, 'worktrees'),
      // No Co-authored-by trailer when nobody in particular asked (a token whose user is unknown).
      ...(t.commenter ? { coAuthor: coAuthorOf(t) } : {}),
      repoFullName: `${github.owner}/${github.repo}`,
      ...(await memoryForRun(deps.memory, `${github.owner}/${github.repo}`)),
      ...(inp.signal ? { signal: inp.signal } : {}),
      onEvent: (ev) => {
        if (inp.mode === 'plan') events.push(ev);
        status.onEvent(ev);
      },
    });
    const ev = result.evidence;
    const final = { verdict: ev.verdict, reason: ev.reason };

    phase = 'publishing';
    await status.set({ phase });
    if (inp.mode === 'plan') return await postPlan(inp, deps, status, { events, result, branch });

    const verified = ev.verdict === 'verified' && result.headSha !== undefined && !result.wip;
    const failedGates = ev.gates.filter((g) => !g.passed);
    const { pushed, prRef, prNumber } = await publishIssueWork(inp, deps, {
      mirrorDir: mirror.dir,
      branch,
      base,
      result,
      verified,
      failedGates,
    });
    const prUrl = prRef?.url;
    const cancelled = inp.signal?.aborted === true;
    await status.set(
      {
        phase: cancelled ? 'cancelled' : ev.verdict === 'aborted' ? 'aborted' : 'done',
        ...final,
        ...(prUrl ? { prUrl } : {}),
        ...(failedGates.length > 0 ? { failedGates } : {}),
        ...(pushed && !prUrl ? { branch, branchUrl: `${github.branchUrl(branch)}` } : {}),
      },
      true,
    );
    await runs.update(inp.runId, { status: 'done', verdict: ev.verdict, ...(prUrl ? { prUrl } : {}) });
    const published = prNumber !== undefined && result.headSha ? publishedRun(inp, result, prNumber, status.state) : undefined;
    return {
      verdict: ev.verdict,
      branch,
      ...(prUrl ? { prUrl } : {}),
      ...(prRef ? { pr: prRef } : {}),
      run: result,
      ...(published ? { published } : {}),
    };
  } catch (e) {
    await recordRunError(deps, status, inp.runId, phase, e);
    return { verdict: 'error', branch };
  }
}
