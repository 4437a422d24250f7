/**
 * `/agent fix …` on a PR that proofpr opened: more commits on the same branch. The config and instruction
 * files come from the base branch (the caller loads the config from there); the task is the PR discussion.
 * Verified work is pushed to the PR branch (force-with-lease on the tip we started from); unverified work
 * never lands on the PR: a comment names the failed gates and the WIP ref the work was pushed to.
 */
import { join } from 'node:path';
import type { RepoConfig } from '../config/repo-config.js';
import type { UsecaseDeps } from './ports.js';
import type { Trigger } from '../github/trigger.js';
import { prOwnership } from './pr-ownership.js';
import { loadIssueContext } from '../github/issue-context.js';
import { sanitizeText } from '../github/sanitize.js';
import { recordRunError, runStatus } from './run-status.js';
import { coAuthorOf, finishRun } from './finish-run.js';
import type { PublishedRun } from './publish-ci.js';
import type { CiFailureReport } from './ci-failure-report.js';
import { publishWork, wipLines, type Published } from './publish-work.js';
import type { StatusReporter } from '../github/status-reporter.js';
import type { PullRequestInfo } from '../github/port.js';
import { reviewFollowUp, type ReviewFollowUp } from './review-follow-up.js';
import type { RunTaskInput, RunTaskResult } from '../run/run-task-types.js';
import type { Phase } from '../github/status-comment.js';
import { memoryForRun } from '../memory/memory-for-run.js';
import type { RunFolderPatch } from '../run/update-run-folder.js';
import { taskImages, type TaskImages } from './task-images.js';
import {
  deferredStatus,
  isAutoUpdate,
  openForFailure,
  pushedNote,
  startAutoUpdate,
  updateWithBase,
  type BaseUpdate,
  type DeferredStatus,
} from './base-update.js';

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
  /** Unverified work was kept at this ref (refs/proofpr/wip/<run-id>); the PR branch is unchanged. */
  wipRef?: string;
  /** The PR updated (also in evidence.pr). */
  pr?: { number: number; url: string };
  /** The run itself, when it ran: its evidence, summary and folder. */
  run?: RunTaskResult;
  /** Verified work was pushed to the PR: what the CI watch reports on. */
  published?: PublishedRun;
}

/**
 * The follow-up's work through the one way out: verified work is pushed to the PR branch (with a lease on
 * the tip the run started from), the PR body and evidence updated, a check run, and one reply per review
 * thread the run answered; unverified work goes to its WIP ref and the PR branch stays as it was.
 */
async function publishFollowUp(
  inp: FollowUpPrInput,
  deps: UsecaseDeps,
  w: {
    prUrl: string;
    mirrorDir: string;
    branch: string;
    startSha: string | undefined;
    result: RunTaskResult;
    review: ReviewFollowUp;
    status: StatusReporter;
    update: BaseUpdate | undefined;
    folder: RunFolderPatch | undefined;
  },
): Promise<Published> {
  const t = inp.trigger;
  const { result, update } = w;
  // After a base merge, the review's "what changed" is measured from the merge, not from the old tip.
  const startSha = update?.sha ?? w.startSha;
  const ev = result.evidence;
  const failedGates = ev.gates.filter((g) => !g.passed);
  const out = await publishWork(
    {
      runId: inp.runId,
      repoDir: w.mirrorDir,
      branch: w.branch,
      result,
      lease: update ? { kind: 'fast-forward', sha: update.startSha } : { kind: 'start-sha', sha: startSha },
      pr: { kind: 'existing', number: t.number, url: w.prUrl, body: result.summaryMd },
      unverified: 'wip-ref',
      ...(w.folder ? { folder: w.folder } : {}),
      status: { reporter: w.status, cancelled: inp.signal?.aborted === true },
    },
    deps,
  );
  if (!out.verified || !result.headSha) {
    await deps.github.createComment(t.number, unverifiedFollowUp(ev.reason, failedGates, out.wipRef));
    return out;
  }
  const { changedPaths, changedHunks } = deps.workspace;
  const commitPaths =
    changedPaths && startSha ? (sha: string) => changedPaths({ repoDir: w.mirrorDir, from: startSha, to: sha }) : undefined;
  // The lines the commit changed since the reviewed head: whether it changed the lines each thread is on.
  const commitHunks =
    changedHunks && startSha ? (sha: string) => changedHunks({ repoDir: w.mirrorDir, from: startSha, to: sha }) : undefined;
  await w.review.answer({
    sha: result.headSha,
    branch: w.branch,
    ...(commitPaths ? { commitPaths } : {}),
    ...(commitHunks ? { commitHunks } : {}),
    runPaths: ev.filesChanged.map((f) => f.path),
  });
  return out;
}

/** The PR comment when the follow-up could not be verified: why, the failed gates, and where the WIP commit is. */
function unverifiedFollowUp(reason: string, failedGates: readonly { name: string; detail: string }[], wipRef: string | undefined): string {
  const lines = [`The follow-up could not be verified: ${reason}. The PR branch was left unchanged.`];
  if (failedGates.length > 0) lines.push('', 'Failed gates:', ...failedGates.map((g) => `- \`${g.name}\`: ${g.detail}`));
  if (wipRef) lines.push('', ...wipLines(wipRef));
  return lines.join('\n');
}

/** The PR, checked again here (the intake checked first): a job never runs or pushes on a PR that is not proofpr's own. */
async function ownPullRequest(deps: UsecaseDeps, number: number): Promise<PullRequestInfo> {
  const { github } = deps;
  const pr = await github.getPullRequest(number);
  if (!pr) throw new Error(`PR #${number} was not found`);
  const owner = await prOwnership(pr, `${github.owner}/${github.repo}`, deps.branches);
  if (owner.kind === 'own') return pr;
  throw new Error(
    owner.kind === 'fork'
      ? `PR #${number} comes from a fork (${owner.headRepo}): proofpr does not push to forks or run their code`
      : `PR #${number} is not proofpr's own: ${owner.why}`,
  );
}

/** The task's parts besides the branch: the PR discussion, the merged base's words, the review threads, CI's failure, the images. */
async function taskParts(
  inp: FollowUpPrInput,
  deps: UsecaseDeps,
  w: { token: string; update: BaseUpdate | undefined },
): Promise<{ body: string; review: ReviewFollowUp; pictures: TaskImages }> {
  const { github } = deps;
  const t = inp.trigger;
  const ctx = await loadIssueContext(github, t, inp.config.authorized);
  // The PR's unresolved review threads are part of the task (not in a CI fix round or a moved base's update); each gets its answer after the push.
  const review = await reviewFollowUp(github, t.number, inp.config, { threads: !inp.ciFix && !isAutoUpdate(t) });
  // Screenshots attached to the PR or to the triggering comment, as for an issue run.
  const pictures = await taskImages(github, t, w.token);
  const body = [ctx.body, w.update?.taskText, review.taskText, inp.ciFix?.text].filter((x): x is string => !!x).join('\n\n');
  return { body, review, pictures };
}

export async function followUpPr(inp: FollowUpPrInput, deps: UsecaseDeps): Promise<FollowUpPrOutcome> {
  const { github, runs } = deps;
  const t = inp.trigger;
  const auto = isAutoUpdate(t);
  const status = auto ? deferredStatus(deps, inp, t.commenter || 'proofpr') : runStatus(deps, inp, t.commenter || 'proofpr', 'follow-up');

  let phase: Phase = 'preparing';
  let branch = t.headRef ?? '';
  await runs.update(inp.runId, { status: 'running' });
  try {
    await status.set({ phase });
    const pr = await ownPullRequest(deps, t.number);
    branch = pr.headRef;
    const access = await github.gitAccess();
    const mirror = await deps.workspace.ensureMirror({ home: deps.home, url: access.url, token: access.token });
    const startSha = await github.getBranchSha(branch);
    const update = await updateWithBase(inp, deps, { mirrorDir: mirror.dir, branch, baseRef: pr.baseRef, startSha, token: access.token });
    let run = inp;
    if (auto) {
      const start = await startAutoUpdate(inp, deps, { status: status as DeferredStatus, update, baseRef: pr.baseRef });
      if (start.kind === 'done') return { verdict: start.verdict, branch };
      run = { ...inp, statusCommentId: start.statusCommentId };
    }
    const parts = await taskParts(inp, deps, { token: access.token, update });

    phase = 'working';
    await status.set({ phase });
    const w0 = { mirrorDir: mirror.dir, token: access.token, baseRef: pr.baseRef, branch, status, ...parts };
    const result = withMergeCommit(await deps.runTask(await followUpTask(run, deps, w0)), update);
    phase = 'publishing';
    await status.set({ phase });
    const w = {
      prUrl: pr.url,
      mirrorDir: mirror.dir,
      branch,
      startSha,
      result,
      review: parts.review,
      status,
      update,
      folder: parts.pictures.folder,
    };
    const out = await publishFollowUp(run, deps, w);
    if (auto && update && out.verified && result.headSha)
      await status.set({ note: pushedNote(pr.baseRef, update, result.headSha, branch) }, true);
    const done = await finishRun(deps, run, { branch, result, out, status: status.state, prUrl: github.htmlUrl(t.number) });
    return { ...done, ...(done.pr ? { pushedTo: branch } : {}) };
  } catch (e) {
    if (auto) await openForFailure(status as DeferredStatus, t.baseRef, inp.config.trigger);
    await recordRunError(deps, status, inp.runId, phase, e);
    return { verdict: 'error', branch };
  }
}

/**
 * A verified run that committed nothing on top of a clean merge: the merge commit is the tested tree (the
 * run found the worktree equal to it), so it is what gets pushed.
 */
function withMergeCommit(result: RunTaskResult, update: BaseUpdate | undefined): RunTaskResult {
  if (!update || result.headSha || result.evidence.verdict !== 'verified') return result;
  return { ...result, headSha: update.sha, wip: false };
}

/** The run's input: the PR's branch continued from its tip (or the merge commit), the base branch's instructions. */
async function followUpTask(
  inp: FollowUpPrInput,
  deps: UsecaseDeps,
  w: {
    mirrorDir: string;
    token: string;
    baseRef: string;
    branch: string;
    body: string;
    review: ReviewFollowUp;
    pictures: TaskImages;
    status: StatusReporter;
  },
): Promise<RunTaskInput> {
  const { github } = deps;
  const t = inp.trigger;
  const modelId = deps.modelOverride ?? inp.config.model;
  return {
    repoDir: w.mirrorDir,
    gitToken: w.token,
    baseRef: w.baseRef,
    branch: w.branch,
    continueBranch: true,
    task: {
      kind: 'issue',
      issue: t.number,
      title: `Follow-up on PR #${t.number}: ${sanitizeText(t.title)}`,
      body: w.body,
      ...(t.instructions ? { instructions: sanitizeText(t.instructions) } : {}),
      ...(w.pictures.images.length ? { images: w.pictures.images } : {}),
    },
    config: inp.config,
    ...(inp.ciFix ? { reproduce: { commands: inp.ciFix.commands } } : {}),
    model: deps.modelFactory({ modelId }),
    modelId,
    mode: 'fix',
    runId: inp.runId,
    runDir: join(deps.home, 'runs', inp.runId),
    worktreesDir: join(deps.home, 'worktrees'),
    // No Co-authored-by trailer when nobody asked (a moved base's update).
    ...(t.commenter ? { coAuthor: coAuthorOf(t) } : {}),
    repoFullName: `${github.owner}/${github.repo}`,
    ...(await memoryForRun(deps.memory, `${github.owner}/${github.repo}`)),
    instructionsRef: w.baseRef,
    ...(inp.signal ? { signal: inp.signal } : {}),
    onEvent: (ev) => {
      w.review.observe(ev);
      w.status.onEvent(ev);
    },
  };
}
