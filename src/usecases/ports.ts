/**
 * The ports the GitHub usecases (fixIssue, followUpPr) work through. No SDK is imported here:
 * hosts bind them to Octokit, git and the model SDK; tests bind them to fakes.
 */
import type { ModelClient } from '../model/model-client.js';
import type { RunTask } from '../run/run-task-types.js';
import type { EnsureMirrorOptions } from '../workspace/mirror.js';
import type { PushBranchOptions } from '../workspace/push.js';
import type { ReactionTarget } from '../github/reaction-endpoint.js';
import type { BranchLedger } from './pr-ownership.js';

export interface IssueComment {
  id: number;
  body: string;
  user: string;
  userType?: string;
  createdAt: string;
  updatedAt: string;
}

export interface PullRequestInfo {
  number: number;
  url: string;
  headRef: string;
  baseRef: string;
  headSha?: string;
  /** Full name ("owner/name") of the head repository; '' when that repository was deleted. A fork when it differs from the base. */
  headRepo?: string;
  draft?: boolean;
  state: string;
}

export type ReactionContent = 'eyes' | 'rocket' | 'confused' | '+1' | '-1';

export type CheckConclusion = 'success' | 'failure' | 'neutral' | 'cancelled' | 'action_required';

/** GitHub, bound to one repository (and the installation that can act on it). */
export interface GitHubPort {
  readonly owner: string;
  readonly repo: string;
  /** On an issue/PR, or on a comment of the given kind (each kind has its own endpoint: reaction-endpoint.ts). */
  addReaction(target: ReactionTarget, content: ReactionContent): Promise<void>;
  createComment(issue: number, body: string): Promise<{ id: number; url: string }>;
  updateComment(commentId: number, body: string): Promise<void>;
  listComments(issue: number): Promise<IssueComment[]>;
  /** Repository permission of a user: `permission` (admin/write/read/none) and `roleName` (incl. maintain/triage). */
  permission(user: string): Promise<{ permission: string; roleName?: string }>;
  getPullRequest(number: number): Promise<PullRequestInfo | undefined>;
  findPullRequestByHead(branch: string): Promise<PullRequestInfo | undefined>;
  createPullRequest(pr: { title: string; body: string; head: string; base: string; draft: boolean }): Promise<PullRequestInfo>;
  updatePullRequest(number: number, patch: { title?: string; body?: string }): Promise<void>;
  addLabels(issue: number, labels: string[]): Promise<void>;
  createCheckRun(run: { headSha: string; name: string; conclusion: CheckConclusion; title: string; summary: string; detailsUrl?: string }): Promise<void>;
  /** The branch's tip on GitHub, or undefined when it does not exist. */
  getBranchSha(branch: string): Promise<string | undefined>;
  getDefaultBranch(): Promise<string>;
  /** `.github/proofpr.yml` parsed (YAML, `_extends` merged) from `ref` (default branch when omitted); null when absent. */
  readConfig(ref?: string): Promise<Record<string, unknown> | null>;
  /** Where and how git talks to this repository: the clone URL and a short-lived token. */
  gitAccess(): Promise<{ url: string; token: string }>;
  /** Web URL of an issue or PR (for links in comments). */
  htmlUrl(number: number): string;
  /** Web URL of a branch. */
  branchUrl(branch: string): string;
}

/** The workspace side: a bare mirror per repository, and pushing a branch from it. */
export interface WorkspacePort {
  ensureMirror(opts: Omit<EnsureMirrorOptions, 'logger'>): Promise<{ dir: string }>;
  /** Only proofpr/* branches; force-with-lease only with ownBranch (CONTRACT §1). */
  pushBranch(opts: Omit<PushBranchOptions, 'logger'>): Promise<{ pushed: boolean; sha: string }>;
}

export type ModelFactory = (opts: { modelId: string }) => ModelClient;

export type RunStatus = 'queued' | 'running' | 'done';

/** The slice of the run store the usecases write to. */
export interface RunRecorder {
  /** Sync for the embedded SQLite store, async for the shared Redis one: callers await it either way. */
  update(runId: string, patch: { status?: RunStatus; verdict?: string; prUrl?: string; commentId?: number }): void | Promise<void>;
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
  /** Model id override (PROOFPR_MODEL); else the repo config's `model`. */
  modelOverride?: string;
  /** Minimum time between two edits of the status comment (default 3000 ms). */
  progressIntervalMs?: number;
  now?: () => number;
}
