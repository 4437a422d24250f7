/** The backtest's report (backtest.json, CONTRACT §10): one case per qualified fix commit, and the summary. */

/** What blocked a miss, and the setting that fixes it (a config key or a reporter). */
export interface Blocker {
  what: string;
  fix: string;
}

/** One pass of a case through `proofpr run` (the replayed upstream change, or the agent). */
export interface CaseRun {
  verdict: string;
  reason: string;
  /** The final run's counts (null when the harness could not count it). */
  counts: { passed: number; total: number } | null;
  failedGates: string[];
  wallMs: number;
  testMs: number;
  /** The run folder (evidence.json, transcript.jsonl, report.html). */
  runDir: string;
  /** Set on a miss: a fix pass that was not verified, or a test-only pass that was. */
  blocked?: Blocker;
}

export interface AgentRun extends CaseRun {
  /** The held-out upstream test change passes on the agent's final tree. */
  resolved: boolean;
  /** proofpr's verdict said what the held-out tests said (verified and resolved, or neither). */
  agreed: boolean;
  costUsd: number;
}

export interface BacktestCase {
  commit: string;
  parent: string;
  subject: string;
  /** Changed paths: the code part and the test part of the upstream change. */
  code: string[];
  tests: string[];
  /** The test command (configured or detected at the parent) and the runner's own count at the fix. */
  testCommand: string;
  runnerCount: number | null;
  fix: CaseRun;
  testOnly: CaseRun;
  agent?: AgentRun;
}

/** A commit the walk looked at and did not take, with the rule it failed. */
export interface SkippedCommit {
  commit: string;
  subject: string;
  why: string;
}

export interface CostEstimate {
  model: string;
  trackedFiles: number;
  trackedBytes: number;
  inputTokens: number;
  outputTokens: number;
  usdPerRun: number;
  formula: string;
}

export interface BacktestSummary {
  cases: number;
  fixVerified: number;
  testOnlyUnverified: number;
  fixVerifiedRate: number;
  testOnlyUnverifiedRate: number;
  /** Fix passes whose final count equals the runner's own count at the fix. */
  countsEqual: number;
  medianRunMs: number;
  estimatedUsdPerRun: number;
  resolved?: number;
  resolveRate?: number;
  verifiedNotResolved?: number;
  verifiedNotResolvedRate?: number;
  costPerResolvedUsd?: number | null;
}

export interface BacktestReport {
  version: 1;
  repo: string;
  head: string;
  startedAt: string;
  endedAt: string;
  last: number;
  model?: string;
  cases: BacktestCase[];
  skipped: SkippedCommit[];
  estimate: CostEstimate;
  summary: BacktestSummary;
}
