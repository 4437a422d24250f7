/** The evidence object (CONTRACT §5): written to evidence.json on every exit path. */
import type { ChangedExpectation, Denial, Differential, FlakyTest, GateResult, TestRun, UntestedHunk, Verdict } from '../events.js';

export interface FileChange {
  path: string;
  added: number;
  removed: number;
}

export interface EvidenceUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
  turns: number;
  compactions: number;
  /** Output tokens spent thinking (part of outputTokens), when thinking was on; and their share of costUsd. */
  thinkingTokens?: number;
  thinkingCostUsd?: number;
  /** Task sub-agents: how many ran, their requests, tokens and cost (already part of the totals above). */
  subagents?: { runs: number; turns: number; inputTokens: number; outputTokens: number; costUsd: number };
}

/** CONTRACT §11. */
export type CiState = 'passed' | 'failed' | 'pending' | 'awaiting-approval' | 'not-run';

export interface CiCheck {
  name: string;
  /** success | failure | neutral | skipped | cancelled | timed_out | action_required | error | pending … */
  conclusion: string;
  url: string;
}

/** evidence.ci (CONTRACT §5). */
export interface CiEvidence {
  sha: string;
  state: CiState;
  checks: CiCheck[];
  /** Why, for not-run, awaiting-approval and pending (with the fix); absent when CI passed or failed on its own. */
  cause?: string;
}

export interface Evidence {
  version: 1;
  runId: string;
  startedAt: string;
  endedAt: string;
  verdict: Verdict;
  reason: string;
  task: { kind: 'issue' | 'prompt' | 'sweep'; issue?: number; title: string; sweep?: string };
  repo: { path?: string; fullName?: string; baseSha: string; branch: string; headSha?: string };
  gates: GateResult[];
  /** Test runs without the internal `by`/`runner` fields are still valid per the contract; they are extra facts. */
  testRuns: TestRun[];
  lastEditAt?: string;
  finalTreeHash?: string;
  filesChanged: FileChange[];
  toolCalls: Record<string, number>;
  denied: Denial[];
  usage: EvidenceUsage;
  pr?: { number: number; url: string };
  /** Where unverified work was pushed (refs/proofpr/wip/<run-id>, CONTRACT §10): a ref no workflow starts on; no branch was pushed. */
  wipRef?: string;
  /** Files the WIP commit could not take (a path git refuses, a protected path), kept in the worktree: path and why. */
  leftOut?: Array<{ path: string; why: string }>;
  /** What in the change would run later (CONTRACT §11): lifecycle scripts, install-time code, workflows, hooks, control files; path and why. */
  infrastructureChanges?: Array<{ path: string; why: string }>;
  /** The shipped-code changes (decided from the project's manifests) and whether reverting them alone made the new tests fail again. */
  fix?: { files: string[]; attributed: boolean };
  /** Paths hidden from the agent's tools and masked in the sandbox: content matching a secret rule, or permissions.masked (CONTRACT §10), worktree-relative. */
  masked?: string[];
  /** Masked paths a harness test run read (each run's `maskedReads` united): permissions.readable opts one in. */
  maskedReads?: string[];
  /** Images attached to the issue or the triggering comment that the model was given (CONTRACT §10). */
  images?: Array<{ url: string; bytes: number }>;
  /** What the repository's own CI said about the pushed commit (when it was watched). */
  ci?: CiEvidence;
  /** Extra facts (not in the contract's minimum): which sandbox applied, baseline of a sweep, red→green, hook errors. */
  sandbox?: 'bwrap' | 'none';
  /** Why there is no sandbox, when there is none (CONTRACT §5). */
  sandboxReason?: string;
  /** Which test command the run used, configured or detected, and why (CONTRACT §5). */
  test?: { command: string; source: 'configured' | 'detected'; why: string };
  /** The setup command run before the agent (configured or detected), or why a detected one was not run. */
  setup?: { command?: string; source?: 'configured' | 'detected'; why: string };
  baseline?: TestRun;
  redGreen?: { ran: boolean; failedBefore: boolean; detail: string };
  /** The commit's source under the base commit's test harness (CONTRACT §10), when the change touched the harness. */
  differential?: Differential;
  /** Base tests whose expectation the change altered (listed at the top of the PR body; gates.changed_tests). */
  changedExpectations?: ChangedExpectation[];
  hookErrors?: string[];
  model?: string;
  /** The repository's checks besides the test command that this run did not run, and why (CONTRACT §10). */
  notRun?: Array<{ check: string; why: string; state?: 'failed' | 'stale' }>;
  /** Those checks the agent ran and whose last run passed. */
  checksPassed?: string[];
  /** Tests that both passed and failed on the same tree (CONTRACT §11): never a fix's failing test nor a regression. */
  flaky?: FlakyTest[];
  /** Changed code outside the tests whose reversion no test noticed (CONTRACT §11); never a verdict by itself. */
  untestedHunks?: UntestedHunk[];
  /** Which tests judged them: those of the test files the change added or changed, or the whole test command. */
  untestedHunksScope?: 'changed tests' | 'all tests';
  /** Task sub-agents (CONTRACT §11): each one's requests and cost (part of `usage`) and its transcript in the run folder. */
  subagents?: Array<{ id: string; turns: number; costUsd: number; transcript?: string }>;
  /** The second look (review.enabled): findings of a fresh-context read-only review; its tokens are in `usage` too. */
  secondLook?: {
    status: 'done' | 'skipped' | 'failed';
    findings: Array<{ severity: 'high' | 'medium' | 'low'; file: string; text: string }>;
    reason?: string;
    usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; costUsd: number; turns: number };
  };
}

/** Exit codes of `proofpr run` (CONTRACT §3). */
export function exitCodeFor(verdict: Verdict): number {
  switch (verdict) {
    case 'verified':
      return 0;
    case 'unverified':
      return 3;
    case 'aborted':
      return 4;
    default:
      return 1;
  }
}
