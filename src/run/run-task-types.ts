/**
 * The one call every host makes to do work: prepare a worktree, run the agent under policy and gates,
 * write the run folder, commit exactly the verified tree (or a WIP commit), and clean up.
 * Publishing (push, PR, comments) is the caller's: it gets the branch and the evidence back.
 */
import type { HostPlace } from '../agent/evidence/host-paths.js';
import type { Baseline } from '../agent/verification/test-runs/baseline.js';
import type { RepoConfig } from '../config/repo-config.js';
import type { ModelClient } from '../model/model-client.js';
import type { RunEvent, TestRun } from '../agent/events.js';
import type { Evidence } from '../agent/evidence/types.js';

export interface TaskSpec {
  kind: 'issue' | 'prompt' | 'sweep';
  issue?: number;
  sweep?: string;
  title: string;
  /** Untrusted text (issue body, comments), already sanitized by the host; the prompt wraps it as data. */
  body: string;
  /** Free-text instructions from the trigger comment (`/agent fix <instructions>`), sanitized. */
  instructions?: string;
  /** Screenshots attached to the issue or the triggering comment (GitHub's attachment URLs only), for the first message. */
  images?: TaskImage[];
}

/** One image of the task: where it came from, its size, and the file (base64) the model gets. */
export interface TaskImage {
  url: string;
  bytes: number;
  mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  data: string;
}

export interface RunTaskInput {
  /**
   * Enforce timeout_min from a watchdog thread that ends the whole process (exit 4) when the run is
   * stuck: for hosts that run one task per process (the CLI, the Action), never for the App's server.
   */
  exitOnStuck?: boolean;
  /** A git repository (a checkout or a bare mirror) to make the worktree from. */
  repoDir: string;
  /** Commit-ish to start from (default HEAD of repoDir). */
  baseRef?: string;
  /** Branch to create for the work, e.g. proofpr/12-fix-the-parser. Reset to baseRef if it exists. */
  branch: string;
  /** Continue from an existing branch's tip instead of baseRef (PR follow-ups, resumed runs). */
  continueBranch?: boolean;
  task: TaskSpec;
  config: RepoConfig;
  model: ModelClient;
  modelId: string;
  /** 'plan' = read-only tools, no commit. */
  mode: 'fix' | 'plan';
  runId: string;
  runDir: string;
  /** Where worktrees live (default: $PROOFPR_HOME/worktrees). */
  worktreesDir: string;
  /** Git identity co-author trailer, e.g. "octocat <123+octocat@users.noreply.github.com>". */
  coAuthor?: string;
  /** The full name ("owner/name") for evidence, when known. */
  repoFullName?: string;
  /**
   * PR follow-ups: read the instruction files (AGENTS.md / CLAUDE.md chain) from this ref (the PR's base
   * branch) instead of the worktree, so a PR head cannot rewrite its own instructions. Unset = the worktree.
   */
  instructionsRef?: string;
  signal?: AbortSignal;
  onEvent?: (ev: RunEvent) => void;
  /** Tests the base branch executed (a sweep's baseline): the final run must execute at least as many. */
  baselineExecuted?: number;
  /** A baseline already taken on the base commit (a sweep's): readiness uses it instead of running the tests again. */
  baseline?: TestRun;
  /** The readiness baseline with its test ids, handed to the verifier so it does not run the base again (set by runTask). */
  verifierBaseline?: Baseline;
  /** Token for the git server (a blob-less mirror fetches file contents on checkout). Never logged. */
  gitToken?: string;
  /** Reuse warm worktrees between runs (default: on for bare mirrors, off for a caller's checkout). */
  pool?: boolean;
  /** The repository's feedback memory index (numbered lines, at most 200): in the prompt after the instructions. */
  memoryIndex?: string;
  /** A CI fix round: the commands CI's failing steps ran; the verifier's ci-reproduced gate needs one failing before the fix and passing after. */
  reproduce?: { commands: string[] };
  /** Keep the worktree after the run (for the CLI's --keep; default false: removed however the run ends). */
  keepWorktree?: boolean;
  /**
   * Folder of the dependency cache (a frozen install keyed by the lock file's hash, see
   * run/dependency-cache-step.ts); false = none. Default: `<PROOFPR_HOME>/dep-cache` (next to
   * worktreesDir) for a bare mirror (the App), none for a caller's checkout.
   */
  dependencyCache?: string | false;
}

export interface RunTaskResult {
  evidence: Evidence;
  exitCode: number;
  runDir: string;
  branch: string;
  /** Commit on `branch` holding the work (verified commit or WIP commit); undefined when nothing changed. */
  headSha?: string;
  /** True when the commit is a WIP commit of unverified/aborted work. */
  wip: boolean;
  /** Markdown for the PR body / job summary (same as runDir/summary.md). */
  summaryMd: string;
  /** The run's places on the host (agent/evidence/host-paths.ts): a PR body rendered again from the evidence names none of them. */
  places?: readonly HostPlace[];
}

export type RunTask = (input: RunTaskInput) => Promise<RunTaskResult>;
