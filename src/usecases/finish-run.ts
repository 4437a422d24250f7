/**
 * The end of an issue run and of a PR follow-up, one piece of code for both: the run recorded as done (its
 * verdict, cost and PR), and the outcome the worker reads (the PR, the WIP ref, the run, and what the CI
 * watch reports on when verified work was pushed).
 */
import type { RunTaskResult } from '../run/run-task-types.js';
import type { StatusState } from '../github/status-comment.js';
import type { Trigger } from '../github/trigger.js';
import type { UsecaseDeps } from './ports.js';
import type { Published } from './publish-work.js';
import type { PublishedRun } from './publish-ci.js';

/** "octocat <583231+octocat@users.noreply.github.com>" for the Co-authored-by trailer. */
export function coAuthorOf(t: Pick<Trigger, 'commenter' | 'commenterId'>): string {
  const local = t.commenterId !== undefined ? `${t.commenterId}+${t.commenter}` : t.commenter;
  return `${t.commenter} <${local}@users.noreply.github.com>`;
}

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

/** What both usecases return once the work was published. */
export interface FinishedRun {
  verdict: string;
  branch: string;
  /** The PR opened or updated (also in evidence.pr). */
  pr?: { number: number; url: string };
  /** Unverified work was kept at this ref (refs/proofpr/wip/<run-id>); no branch was pushed. */
  wipRef?: string;
  /** The run itself: its evidence (with `pr`), summary and folder. Hosts never read them back from disk. */
  run: RunTaskResult;
  /** A verified PR was opened or updated: what the CI watch reports on. */
  published?: PublishedRun;
}

/** Records the run as done (with `prUrl` when given, else the PR's) and builds its outcome. */
export async function finishRun(
  deps: Pick<UsecaseDeps, 'runs'>,
  inp: { runId: string; statusCommentId: number },
  w: { branch: string; result: RunTaskResult; out: Published; status: StatusState; prUrl?: string },
): Promise<FinishedRun> {
  const { result, out } = w;
  const ev = result.evidence;
  result.evidence = out.evidence;
  const pr = out.pr ? { number: out.pr.number, url: out.pr.url } : undefined;
  const prUrl = w.prUrl ?? pr?.url;
  await deps.runs.update(inp.runId, { status: 'done', verdict: ev.verdict, costUsd: ev.usage.costUsd, ...(prUrl ? { prUrl } : {}) });
  const published = pr && result.headSha ? publishedRun(inp, result, pr.number, w.status) : undefined;
  return {
    verdict: ev.verdict,
    branch: w.branch,
    ...(pr ? { pr } : {}),
    ...(out.wipRef ? { wipRef: out.wipRef } : {}),
    run: result,
    ...(published ? { published } : {}),
  };
}
