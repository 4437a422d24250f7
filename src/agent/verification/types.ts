import type { GateResult, TestRun } from '../events.js';

/** Facts about a Bash call the verifier watches. */
export interface BashOutcome {
  command: string;
  exitCode: number | null;
  output: string;
  startedAt: string;
  endedAt: string;
  outputPath?: string;
}

/** Opaque handle returned for a Bash call that is a test run (carries the tree hash taken before it ran). */
export interface TestRunHandle {
  command: string;
  treeHash: string;
  startedAt: string;
  /**
   * The test observers for this call: the Bash tool runs it with these variables added (same argv and
   * cwd), and its runners' reports land in `observeDir`, so the agent's runs are counted per test with
   * the same ids as the harness's own.
   */
  extendEnv?: (env: Readonly<Record<string, string | undefined>>) => Record<string, string>;
  observeDir?: string;
}

export interface StopVerdict {
  /** True when every enabled gate passed (the model may stop). */
  ok: boolean;
  gates: GateResult[];
  /** For the model when !ok: names each failing gate and what to do. */
  message: string;
  /** When ok: the tree the gates accepted (the counting test run's, else the tree evaluated). */
  acceptedTree?: string;
}

/**
 * The harness's own judgement of the work. The loop calls beforeBash/afterBash around every Bash call,
 * evaluate() when the model wants to stop, and finalRun() once at the end.
 */
export interface Verifier {
  beforeBash(command: string): Promise<TestRunHandle | undefined>;
  afterBash(handle: TestRunHandle, outcome: BashOutcome): Promise<TestRun>;
  /**
   * The files the last Bash call changed in the worktree (the tree before it, hashed by beforeBash, against
   * the tree now): an edit by a command is an edit like a Write, for what ran "after the last edit".
   */
  changedByBash?(): Promise<string[]>;
  /** A file tool changed the worktree: the tree after the last command is no longer the tree now. */
  edited?(): void;
  evaluate(): Promise<StopVerdict>;
  /** Runs test.command itself on the final tree (when final_run is on) and re-evaluates the gates. */
  finalCheck(): Promise<StopVerdict>;
  /**
   * When the run ends unverified: one counted harness run of the final tree (a clean checkout of it),
   * unless the harness already ran that tree, so the evidence says exactly which tests fail.
   */
  closingRun?(): Promise<void>;
  /** The commit the final run tested in a clean checkout (written, not yet on the branch): the one to push. */
  testedCommit?(): { sha: string; tree: string; parent?: string; changed: boolean } | undefined;
}
