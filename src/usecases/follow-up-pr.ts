/**
 * `/agent fix …` on a PR that proofpr opened: more commits on the same branch. The config and instruction
 * files come from the base branch (the caller loads the config from there); the task is the PR discussion.
 * Verified work is pushed to the PR branch (force-with-lease on the tip we started from); unverified work
 * never lands on the PR: a comment names the failed gates and the WIP commit stays on the server.
 */
import { join } from 'node:path';
import type { RepoConfig } from '../config/repo-config.js';
import type { UsecaseDeps } from './ports.js';
import type { Trigger } from '../github/trigger.js';
import { prOwnership } from './pr-ownership.js';
import { loadIssueContext } from '../github/issue-context.js';
import { sanitizeText } from '../github/sanitize.js';
import { recordRunError, runStatus } from './run-status.js';
import { checkRunFor } from '../github/check-run.js';
import { coAuthorOf, publishedRun } from './fix-issue.js';
import type { PublishedRun } from './publish-ci.js';
import type { CiFailureReport } from './ci-failure-report.js';
import { recordPullRequest } from './record-pr.js';
import { reviewFollowUp, type ReviewFollowUp } from './review-follow-up.js';
import type { RunTaskResult } from '../run/run-task-types.js';
import type { Phase } from '../github/status-comment.js';
import { memoryForRun } from '../memory/memory-for-run.js';

export interface FollowUpPrInput {
  runId: string;
  trigger: Trigger;
  config: RepoConfig;
  statusCommentId: number;
  signal?: AbortSignal;
  /** A CI fix round (ci-fix-round.ts): CI's failure on the PR's head is the task, reproduced first. */
  ciFix?: CiFailureReport;
}

export interface FollowUpPrOutcome {
  verdict: string;
  branch: string;
  pushedTo?: string;
  /** The PR updated (also in evidence.pr). */
  pr?: { number: number; url: string };
  /** The run itself, when it ran: its evidence, summary and folder. */
  run?: RunTaskResult;
  /** Verified work was pushed to the PR: what the CI watch reports on. */
  published?: PublishedRun;
}

/**
 * Verified follow-up work: pushed to the PR branch (with a lease on the tip the run started from), the PR
 * body and evidence updated, a check run, and one reply per review thread the run answered.
 */
async function pushFollowUp(
  deps: UsecaseDeps,
  w: {
    prNumber: number;
    prUrl: string;
    mirrorDir: string;
    branch: string;
    startSha: string | undefined;
    result: RunTaskResult;
    review: ReviewFollowUp;
  },
): Promise<{ number: number; url: string } | undefined> {
  const { github } = deps;
  const { result, branch, startSha } = w;
  if (!result.headSha) return undefined;
  const ev = result.evidence;
  const pushAccess = await github.gitAccess();
  await deps.workspace.pushBranch({
    repoDir: w.mirrorDir,
    remoteUrl: pushAccess.url,
    branch,
    token: pushAccess.token,
    expectedRemoteSha: startSha ?? null,
    ownBranch: true,
    ...(result.headSha ? { sha: result.headSha } : {}),
  });
  await github.updatePullRequest(w.prNumber, { body: `${result.summaryMd}` });
  const prRef = { number: w.prNumber, url: w.prUrl };
  result.evidence = await recordPullRequest(result.runDir, ev, prRef);
  await github.createCheckRun({ headSha: result.headSha, ...checkRunFor(ev, result.summaryMd) });
  const { changedPaths } = deps.workspace;
  const from = startSha;
  const commitPaths = changedPaths && from ? (sha: string) => changedPaths({ repoDir: w.mirrorDir, from, to: sha }) : undefined;
  await w.review.answer({
    sha: result.headSha,
    branch,
    ...(commitPaths ? { commitPaths } : {}),
    runPaths: ev.filesChanged.map((f) => f.path),
  });
  return prRef;
}

/** The PR comment when the follow-up could not be verified: why, the failed gates, and where the WIP commit is. */
function unverifiedFollowUp(
  reason: string,
  failedGates: readonly { name: string; detail: string }[],
  headSha: string | undefined,
  runId: string,
): string {
  const lines = [`The follow-up could not be verified: ${reason}. The PR branch was left unchanged.`];
  if (failedGates.length > 0) lines.push('', 'Failed gates:', ...failedGates.map((g) => `- \`${g.name}\`: ${g.detail}`));
  if (headSha)
    lines.push('', `The work-in-progress commit \`${headSha.slice(0, 12)}\` is kept on the server (run \`${runId}\`), not pushed.`);
  return lines.join('\n');
}

export async function followUpPr(inp: FollowUpPrInput, deps: UsecaseDeps): Promise<FollowUpPrOutcome> {
  const { github, runs } = deps;
  const t = inp.trigger;
  const cfg = inp.config;
  const status = runStatus(deps, inp, t.commenter, 'follow-up');

  let phase: Phase = 'preparing';
  let branch = t.headRef ?? '';
  await runs.update(inp.runId, { status: 'running' });
  try {
    await status.set({ phase });
    const pr = await github.getPullRequest(t.number);
    if (!pr) throw new Error(`PR #${t.number} was not found`);
    // Checked again here (the intake checked first): a job never runs or pushes on a PR that is not proofpr's own.
    const owner = await prOwnership(pr, `${github.owner}/${github.repo}`, deps.branches);
    if (owner.kind !== 'own')
      throw new Error(
        owner.kind === 'fork'
          ? `PR #${t.number} comes from a fork (${owner.headRepo}): proofpr does not push to forks or run their code`
          : `PR #${t.number} is not proofpr's own: ${owner.why}`,
      );
    branch = pr.headRef;
    const ctx = await loadIssueContext(github, t, cfg.authorized);
    // The PR's unresolved review threads are part of the task (not in a CI fix round); each gets its answer after the push.
    const review = await reviewFollowUp(github, t.number, cfg, { threads: !inp.ciFix });
    const access = await github.gitAccess();
    const mirror = await deps.workspace.ensureMirror({ home: deps.home, url: access.url, token: access.token });
    const startSha = await github.getBranchSha(branch);
    const modelId = deps.modelOverride ?? cfg.model;

    phase = 'working';
    await status.set({ phase });
    const result = await deps.runTask({
      repoDir: mirror.dir,
      gitToken: access.token,
      baseRef: pr.baseRef,
      branch,
      continueBranch: true,
      task: {
        kind: 'issue',
        issue: t.number,
        title: `Follow-up on PR #${t.number}: ${sanitizeText(t.title)}`,
        body: [ctx.body, review.taskText, inp.ciFix?.text].filter((x): x is string => !!x).join('\n\n'),
        ...(t.instructions ? { instructions: sanitizeText(t.instructions) } : {}),
      },
      config: cfg,
      ...(inp.ciFix ? { reproduce: { commands: inp.ciFix.commands } } : {}),
      model: deps.modelFactory({ modelId }),
      modelId,
      mode: 'fix',
      runId: inp.runId,
      runDir: join(deps.home, 'runs', inp.runId),
      worktreesDir: join(deps.home, 'worktrees'),
      coAuthor: coAuthorOf(t),
      repoFullName: `${github.owner}/${github.repo}`,
      ...(await memoryForRun(deps.memory, `${github.owner}/${github.repo}`)),
      instructionsRef: pr.baseRef,
      ...(inp.signal ? { signal: inp.signal } : {}),
      onEvent: (ev) => {
        review.observe(ev);
        status.onEvent(ev);
      },
    });
    const ev = result.evidence;
    phase = 'publishing';
    await status.set({ phase });
    const verified = ev.verdict === 'verified' && !result.wip && result.headSha !== undefined;
    const failedGates = ev.gates.filter((g) => !g.passed);
    const prRef = verified
      ? await pushFollowUp(deps, { prNumber: t.number, prUrl: pr.url, mirrorDir: mirror.dir, branch, startSha, result, review })
      : undefined;
    const pushedTo = prRef ? branch : undefined;
    if (!verified) await github.createComment(t.number, unverifiedFollowUp(ev.reason, failedGates, result.headSha, inp.runId));
    await status.set(
      {
        phase: inp.signal?.aborted ? 'cancelled' : ev.verdict === 'aborted' ? 'aborted' : 'done',
        verdict: ev.verdict,
        reason: ev.reason,
        ...(verified ? { prUrl: github.htmlUrl(t.number) } : {}),
        ...(failedGates.length > 0 ? { failedGates } : {}),
      },
      true,
    );
    await runs.update(inp.runId, { status: 'done', verdict: ev.verdict, prUrl: github.htmlUrl(t.number) });
    const published = pushedTo && result.headSha ? publishedRun(inp, result, t.number, status.state) : undefined;
    return {
      verdict: ev.verdict,
      branch,
      ...(pushedTo ? { pushedTo } : {}),
      ...(prRef ? { pr: prRef } : {}),
      run: result,
      ...(published ? { published } : {}),
    };
  } catch (e) {
    await recordRunError(deps, status, inp.runId, phase, e);
    return { verdict: 'error', branch };
  }
}
