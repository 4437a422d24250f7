/**
 * The ports the GitHub usecases (fixIssue, followUpPr) work through besides GitHubPort (src/github/port.ts).
 * No SDK is imported here: hosts bind them to Octokit, git and the model SDK; tests bind them to fakes.
 */
import type { GitHubPort } from '../github/port.js';
import type { ModelClient } from '../model/model-client.js';
import type { RunTask } from '../run/run-task-types.js';
import type { EnsureMirrorOptions } from '../workspace/mirror.js';
import type { PushBranchOptions } from '../workspace/push.js';
import type { MergeIntoBranch, MergeIntoBranchOptions } from '../workspace/merge-into-branch.js';
import type { DiffHunk } from '../workspace/changed-hunks.js';
import type { BranchLedger } from './pr-ownership.js';
import type { MemoryStore } from '../memory/types.js';

/** The workspace side: a bare mirror per repository, and pushing a branch from it. */
export interface WorkspacePort {
  ensureMirror(opts: Omit<EnsureMirrorOptions, 'logger'>): Promise<{ dir: string }>;
  /** Only proofpr/* branches; force-with-lease only with ownBranch (CONTRACT §1). */
  pushBranch(opts: Omit<PushBranchOptions, 'logger'>): Promise<{ pushed: boolean; sha: string }>;
  /** Paths changed between two commits of `repoDir` (review follow-ups check claims with it); absent in fakes. */
  changedPaths?(opts: { repoDir: string; from: string; to: string }): Promise<string[]>;
  /** The lines changed between two commits (review follow-ups: whether a commit changed a thread's lines); absent in fakes. */
  changedHunks?(opts: { repoDir: string; from: string; to: string }): Promise<DiffHunk[]>;
  /** The base merged into a PR branch before a follow-up (conflicts left as markers for the agent); absent: no update. */
  mergeIntoBranch?(opts: MergeIntoBranchOptions): Promise<MergeIntoBranch>;
}

export type ModelFactory = (opts: { modelId: string }) => ModelClient;

export type RunStatus = 'queued' | 'running' | 'done';

/** The slice of the run store the usecases write to. */
export interface RunRecorder {
  /** Sync for the embedded SQLite store, async for the shared Redis one: callers await it either way. */
  update(
    runId: string,
    patch: { status?: RunStatus; verdict?: string; prUrl?: string; commentId?: number; costUsd?: number },
  ): void | Promise<void>;
  /** This month's spend of a repository (the App's run store): a run started by no comment checks the budget with it. */
  spendSince?(repo: string, since: string): MonthSpend | Promise<MonthSpend>;
  /** This month's spend of every repository of `owner` (an installation's account): the installation budget's. */
  ownerSpendSince?(owner: string, since: string): MonthSpend | Promise<MonthSpend>;
}

export interface UsecaseDeps {
  github: GitHubPort;
  workspace: WorkspacePort;
  runTask: RunTask;
  modelFactory: ModelFactory;
  runs: RunRecorder;
  /**
   * The branches proofpr created (the App's run store). Absent in hosts without state (the Action): then
   * a same-repository proofpr/ branch counts as its own (pr-ownership.ts).
   */
  branches?: BranchLedger;
  /** $PROOFPR_HOME: mirrors/, worktrees/, runs/ live under it. */
  home: string;
  /** The repositories' feedback memory (the App's state): its index goes into every run's prompt. */
  memory?: MemoryStore;
  /** Model id override (PROOFPR_MODEL); else the repo config's `model`. */
  modelOverride?: string;
  /** The App's per-installation monthly budget in USD (PROOFPR_INSTALLATION_MONTHLY_USD); absent = none. */
  installationMonthlyUsd?: number;
  /** Minimum time between two edits of the status comment (default 3000 ms). */
  progressIntervalMs?: number;
  now?: () => number;
}

type Awaitable<T> = T | Promise<T>;

/** What the intake reads of a run record. */
export interface RunView {
  id: string;
  status: RunStatus;
  verdict?: string;
  prUrl?: string;
  commentId?: number;
  commentUrl?: string;
}

/**
 * The state a host with memory (the App) gives the intake: deliveries seen, one run per issue (the lease),
 * the runs to answer status and cancel with, the branches proofpr created. The run store implements it.
 */
export interface RunLedger<V extends RunView = RunView> extends RunRecorder, BranchLedger {
  /** Record a webhook delivery id; false when it was seen before (a redelivery starts nothing). */
  recordDelivery(deliveryId: string): Awaitable<boolean>;
  /** Undo recordDelivery when handling failed before anything was queued, so GitHub's redelivery can retry. */
  forgetDelivery?(deliveryId: string): Awaitable<void>;
  /** Start a run holding the issue's lease; when another run is active, returns it instead. */
  tryCreate(run: { id: string; repo: string; issue: number; kind: string }): Awaitable<{ ok: true; run: V } | { ok: false; active: V }>;
  /** The queued or running run of an issue, if any. */
  active(repo: string, issue: number): Awaitable<V | undefined>;
  latest(repo: string, issue: number): Awaitable<V | undefined>;
  setComment(id: string, commentId: number, commentUrl: string): Awaitable<void>;
  /** The repository's runs created since `since` (ISO): their summed cost, count and verified count; absent when the store keeps no costs. */
  spendSince?(repo: string, since: string): Awaitable<MonthSpend>;
  /** The same summed over every repository `owner/*` (an installation belongs to one account). */
  ownerSpendSince?(owner: string, since: string): Awaitable<MonthSpend>;
}

export interface MonthSpend {
  costUsd: number;
  runs: number;
  verified: number;
}
