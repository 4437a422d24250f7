/**
 * The ports the GitHub usecases (fixIssue, followUpPr) work through besides GitHubPort (src/github/port.ts).
 * No SDK is imported here: hosts bind them to Octokit, git and the model SDK; tests bind them to fakes.
 */
import type { GitHubPort } from '../github/port.js';
import type { ModelClient } from '../model/model-client.js';
import type { RunTask } from '../run/run-task-types.js';
import type { EnsureMirrorOptions } from '../workspace/mirror.js';
import type { PushBranchOptions } from '../workspace/push.js';
import type { BranchLedger } from './pr-ownership.js';

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
