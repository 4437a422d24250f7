/**
 * GitHubPort: GitHub as the usecases see it, bound to one repository. Owned by src/github; the one
 * adapter is createGitHubPort (github-port.ts) over any REST Octokit. No SDK types appear here, so the
 * usecases and their tests never depend on Octokit.
 */
import type { ReactionTarget } from './reaction-endpoint.js';
import type { ReviewThreadsPort } from './review-threads-port.js';
import type { CiPort } from './ci-port.js';

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
  /** Always a boolean: a PR GitHub reports without `draft` is not a draft. */
  draft: boolean;
  /** Who opened it (login and account type, e.g. "Bot"), when GitHub said. */
  author?: { login: string; type?: string };
  state: string;
  /** The PR's title when GitHub said (untrusted, not yet sanitized). */
  title?: string;
}

export type ReactionContent = 'eyes' | 'rocket' | 'confused' | '+1' | '-1';

export type CheckConclusion = 'success' | 'failure' | 'neutral' | 'cancelled' | 'action_required';

export interface CheckRunInput {
  headSha: string;
  name: string;
  conclusion: CheckConclusion;
  title: string;
  summary: string;
  detailsUrl?: string;
}

export interface IssueInfo {
  number: number;
  title: string;
  body: string;
  state: string;
  /** The number is a pull request's (the issues API answers for both). */
  isPullRequest: boolean;
}

/** Issues and comments. */
export interface IssuesPort {
  /** undefined when there is no such issue (or the token cannot read it). */
  getIssue(number: number): Promise<IssueInfo | undefined>;
  /** On an issue/PR, or on a comment of the given kind (each kind has its own endpoint: reaction-endpoint.ts). */
  addReaction(target: ReactionTarget, content: ReactionContent): Promise<void>;
  createComment(issue: number, body: string): Promise<{ id: number; url: string }>;
  updateComment(commentId: number, body: string): Promise<void>;
  listComments(issue: number): Promise<IssueComment[]>;
  /** No request when `labels` is empty. */
  addLabels(issue: number, labels: string[]): Promise<void>;
}

/** Pull requests (same-repository heads only: a fork's PR is never proofpr's). */
export interface PullsPort {
  getPullRequest(number: number): Promise<PullRequestInfo | undefined>;
  /** The open PR whose head is `branch` in this repository, else the latest closed one. */
  findPullRequestByHead(branch: string): Promise<PullRequestInfo | undefined>;
  createPullRequest(pr: { title: string; body: string; head: string; base: string; draft: boolean }): Promise<PullRequestInfo>;
  updatePullRequest(number: number, patch: { title?: string; body?: string }): Promise<void>;
  /** The open PRs of this repository (same-repository heads only), or only those onto `base`. */
  listOpenPullRequests(opts?: { base?: string }): Promise<PullRequestInfo[]>;
  /** A draft PR marked ready for review (GraphQL `markPullRequestReadyForReview`); absent in fakes that cannot. */
  markReadyForReview?(number: number): Promise<void>;
}

/** Checks. */
export interface ChecksPort {
  /** A token without `checks: write` (403) is logged and skipped: the PR body carries the evidence. */
  createCheckRun(run: CheckRunInput): Promise<void>;
}

/** The repository itself: permissions, branches, config, git access, URLs. */
export interface RepositoryPort {
  readonly owner: string;
  readonly repo: string;
  /** The user the credentials act as; undefined when they cannot say (an installation token). */
  authenticatedUser(): Promise<{ login: string; id: number } | undefined>;
  /** Repository permission of a user: `permission` (admin/write/read/none) and `roleName` (incl. maintain/triage). */
  permission(user: string): Promise<{ permission: string; roleName?: string }>;
  /** The branch's tip on GitHub, or undefined when it does not exist. */
  getBranchSha(branch: string): Promise<string | undefined>;
  getDefaultBranch(): Promise<string>;
  /**
   * The config file parsed from `ref` (default branch when omitted), `_extends` merged as Probot's config
   * loader does (shallow, this file's keys win; the org's `.github` repository when the file is absent);
   * null when no file exists.
   */
  readConfig(ref?: string): Promise<Record<string, unknown> | null>;
  /** A config object read elsewhere (the Action's checkout) with its `_extends` chain resolved the same way. */
  extendConfig(config: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Where and how git talks to this repository: the clone URL and a short-lived token. */
  gitAccess(): Promise<{ url: string; token: string }>;
  /** Web URL of an issue or PR (for links in comments). */
  htmlUrl(number: number): string;
  /** Web URL of a branch. */
  branchUrl(branch: string): string;
}

/** GitHub, bound to one repository (and the credentials that can act on it). */
export interface GitHubPort extends RepositoryPort, IssuesPort, PullsPort, ChecksPort {
  /** A PR's review threads and replies in them (review follow-ups); absent in fakes that have none. */
  readonly reviews?: ReviewThreadsPort;
  /** Checks, statuses and Actions of this repository (the CI watch); absent in fakes that cannot read them. */
  readonly ci?: CiPort;
}
