/**
 * The one way out (issue 24): everything that pushes and opens or updates a pull request goes through
 * publishWork, in this order: push with the remote-sha lease → branch recorded → PR upsert with labels →
 * evidence.pr (through the run-folder writer) → check run → status comment. Each real difference between
 * the callers (fix-issue, follow-up-pr, sweep, the Action's direct task) is a named option here.
 *
 * Unverified work never reaches a branch (issue 23): it is pushed to refs/proofpr/wip/<run-id>, a ref
 * namespace no workflow starts on, so an unverified, possibly prompt-injected change never runs in CI
 * with the repository's secrets before anyone looked at it.
 */
import type { Evidence } from '../agent/evidence/types.js';
import type { GitHubPort } from '../github/port.js';
import { upsertPullRequest } from '../github/pull-request.js';
import { checkRunFor } from '../github/check-run.js';
import type { StatusReporter } from '../github/status-reporter.js';
import type { StatusState } from '../github/status-comment.js';
import type { RunTaskResult } from '../run/run-task-types.js';
import { updateRunFolder, type RunFolderPatch } from '../run/update-run-folder.js';
import { wipFetchCommand, wipRefFor, type PushBranchOptions } from '../workspace/push.js';
import type { BranchLedger } from './pr-ownership.js';
import type { WorkspacePort } from './ports.js';

export type PublishGitHub = Pick<
  GitHubPort,
  | 'owner'
  | 'repo'
  | 'gitAccess'
  | 'getBranchSha'
  | 'findPullRequestByHead'
  | 'createPullRequest'
  | 'updatePullRequest'
  | 'addLabels'
  | 'createCheckRun'
>;

export interface PublishDeps {
  github: PublishGitHub;
  workspace: Pick<WorkspacePort, 'pushBranch'>;
  /** Where the branches proofpr pushed are recorded (its own PRs are the ones it follows up on). */
  branches?: BranchLedger;
}

/** Which remote tip the push may replace (force-with-lease on exactly that sha; null: the branch must not exist). */
export type PublishLease =
  /** The branch's tip on GitHub right before the push (a new branch, a re-run, a sweep's open PR). */
  | { kind: 'remote-tip' }
  /** The tip the run started from (a follow-up: a push that landed meanwhile is never overwritten). */
  | { kind: 'start-sha'; sha: string | undefined }
  /**
   * A fast-forward of `sha`, the remote tip the run's commit descends from (a PR updated with its base):
   * the remote must still be at `sha`, and the push is a plain one, which git refuses unless it fast-forwards.
   */
  | { kind: 'fast-forward'; sha: string };

/** The pull request: opened or updated by its head branch, or a known PR whose body is replaced (a follow-up). */
export type PublishPr =
  | { kind: 'upsert'; base: string; title: string; body: string; draft: boolean; labels: string[] }
  | { kind: 'existing'; number: number; url: string; body: string };

export interface PublishWorkInput {
  runId: string;
  /** The repository holding the run's commit (the mirror or the checkout). */
  repoDir: string;
  branch: string;
  /** The run: its verdict decides between the branch and the WIP ref; its folder gets evidence.pr / wipRef. */
  result: RunTaskResult;
  lease: PublishLease;
  pr: PublishPr;
  /** Unverified work: pushed to refs/proofpr/wip/<run-id> ('wip-ref'), or left where the run committed it ('keep-local'). */
  unverified: 'wip-ref' | 'keep-local';
  /** What the caller adds to the run folder besides pr / wipRef (a sweep: its baseline and summary.md). */
  folder?: RunFolderPatch;
  /** The run's status comment (its last word: phase, verdict, failed gates, PR or WIP ref); absent: none (sweeps, direct tasks). */
  status?: { reporter: StatusReporter; cancelled: boolean };
}

export interface Published {
  /** Verified work went to the branch and the PR. */
  verified: boolean;
  pr?: { number: number; url: string; created: boolean };
  /** Where unverified work was kept instead (no branch was pushed). */
  wipRef?: string;
  evidence: Evidence;
  summaryMd: string;
}

/** Verified: the run committed the tested tree and nothing marks it as work in progress. */
export function isVerified(result: RunTaskResult): boolean {
  return result.evidence.verdict === 'verified' && result.headSha !== undefined && !result.wip;
}

/**
 * The one remote-tip check of every lease: what the push may replace on the remote. A force-with-lease on
 * the expected tip for proofpr's own branch (the start sha, or the tip read now); for a fast-forward, the
 * remote must still be at the sha the run's commit descends from, and the push is a plain one.
 */
async function leaseOf(
  input: PublishWorkInput,
  github: PublishGitHub,
): Promise<Pick<PushBranchOptions, 'expectedRemoteSha' | 'ownBranch'>> {
  const lease = input.lease;
  const remote = lease.kind === 'start-sha' ? lease.sha : await github.getBranchSha(input.branch);
  if (lease.kind !== 'fast-forward') return { expectedRemoteSha: remote ?? null, ownBranch: true };
  if (remote !== lease.sha)
    throw new Error(
      `the branch ${input.branch} moved on the remote (${remote?.slice(0, 12) ?? 'deleted'}, not ${lease.sha.slice(0, 12)}) since the run started; nothing was pushed: re-run /agent fix`,
    );
  return { ownBranch: false };
}

/** One push of `sha` from the run's repository, with a fresh token (the one from the start of the run may have expired). */
async function pushSha(
  input: PublishWorkInput,
  deps: PublishDeps,
  sha: string,
  how: Pick<PushBranchOptions, 'expectedRemoteSha' | 'ownBranch' | 'wipRef'>,
): Promise<void> {
  const access = await deps.github.gitAccess();
  await deps.workspace.pushBranch({
    repoDir: input.repoDir,
    remoteUrl: access.url,
    branch: input.branch,
    token: access.token,
    sha,
    ...how,
  });
}

/** Step 1: the verified commit to the branch, with the lease on the tip proofpr expects there. */
async function pushVerified(input: PublishWorkInput, deps: PublishDeps, sha: string): Promise<void> {
  await pushSha(input, deps, sha, await leaseOf(input, deps.github));
}

/** Unverified work, when there is a commit: to refs/proofpr/wip/<run-id> (it must not exist yet), never to a branch. */
async function keepWip(input: PublishWorkInput, deps: PublishDeps, sha: string): Promise<string> {
  const wipRef = wipRefFor(input.runId);
  await pushSha(input, deps, sha, { ownBranch: true, wipRef });
  return wipRef;
}

/** Step 3: the PR opened or updated, with its labels. */
async function upsertPr(input: PublishWorkInput, github: PublishGitHub): Promise<NonNullable<Published['pr']>> {
  const pr = input.pr;
  if (pr.kind === 'existing') {
    await github.updatePullRequest(pr.number, { body: pr.body });
    return { number: pr.number, url: pr.url, created: false };
  }
  const up = await upsertPullRequest(github, { branch: input.branch, ...pr });
  return { number: up.number, url: up.url, created: up.created };
}

/** The `proofpr` check run on a published sha: the one place a check run is created (CI results reuse it). */
export async function postCheckRun(
  github: Pick<GitHubPort, 'createCheckRun'>,
  sha: string,
  evidence: Evidence,
  summaryMd: string,
): Promise<void> {
  await github.createCheckRun({ headSha: sha, ...checkRunFor(evidence, summaryMd) });
}

/** Where unverified work is, and the one command that fetches it (no branch was pushed, so no workflow ran on it). */
export function wipLines(wipRef: string): string[] {
  return [
    `The work in progress is kept at \`${wipRef}\`, not on a branch: unverified work is never pushed where a workflow would run it. To look at it:`,
    '',
    '```',
    wipFetchCommand(wipRef),
    '```',
  ];
}

/** Unverified: the WIP ref (when asked and there is a commit), recorded in the folder and named in summary.md; no branch, no PR. */
async function publishUnverified(input: PublishWorkInput, deps: PublishDeps): Promise<Published> {
  const { result } = input;
  const sha = result.headSha;
  const wipRef = input.unverified === 'wip-ref' && sha ? await keepWip(input, deps, sha) : undefined;
  const summary = input.folder?.summaryMd ?? result.summaryMd;
  const patch = wipRef
    ? { ...withFolder(input, { wipRef }), summaryMd: `${summary.trimEnd()}\n\n${wipLines(wipRef).join('\n')}\n` }
    : withFolder(input, {});
  const folder = await updateRunFolder(result.runDir, patch, { current: result.evidence });
  await finalStatus(input, { ...(wipRef ? { wipRef } : {}) });
  return { verified: false, ...(wipRef ? { wipRef } : {}), ...folder };
}

/** The caller's folder patch with what publishing adds to the evidence. */
function withFolder(input: PublishWorkInput, evidence: Partial<Evidence>): RunFolderPatch {
  const f = input.folder ?? {};
  return { ...f, evidence: { ...(f.evidence ?? {}), ...evidence } };
}

/** Step 6: the status comment's last word. */
async function finalStatus(input: PublishWorkInput, patch: Partial<StatusState>): Promise<void> {
  const s = input.status;
  if (!s) return;
  const ev = input.result.evidence;
  const failedGates = ev.gates.filter((g) => !g.passed);
  const phase = s.cancelled ? 'cancelled' : ev.verdict === 'aborted' ? 'aborted' : 'done';
  await s.reporter.set(
    { phase, verdict: ev.verdict, reason: ev.reason, ...(failedGates.length > 0 ? { failedGates } : {}), ...patch },
    true,
  );
}

/** Publishes a run's work: see the file comment for the order. The run's evidence and summary come back as written. */
export async function publishWork(input: PublishWorkInput, deps: PublishDeps): Promise<Published> {
  const { github } = deps;
  const { result } = input;
  const sha = result.headSha;
  if (!isVerified(result) || sha === undefined) return publishUnverified(input, deps);
  await pushVerified(input, deps, sha);
  // The ledger, not the name, is what makes this branch proofpr's own for later follow-ups.
  await deps.branches?.recordBranch(`${github.owner}/${github.repo}`, input.branch, input.runId);
  const pr = await upsertPr(input, github);
  const folder = await updateRunFolder(result.runDir, withFolder(input, { pr: { number: pr.number, url: pr.url } }), {
    current: result.evidence,
  });
  await postCheckRun(github, sha, folder.evidence, folder.summaryMd || result.summaryMd);
  await finalStatus(input, { prUrl: pr.url });
  return { verified: true, pr, ...folder };
}
