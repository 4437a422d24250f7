/**
 * The CI port (Checks, Statuses and Actions APIs of one repository): what the CI watch, the CI fix and
 * the review follow-ups read. github/ci-api.ts binds it to Octokit; tests bind it to fakes.
 */
export type { CiState, CiCheck, CiEvidence } from '../agent/evidence/types.js';

export interface CheckRunInfo {
  id: number;
  name: string;
  status: 'queued' | 'in_progress' | 'completed' | string;
  conclusion: string | null;
  url: string;
  /** Slug of the App that created it ("github-actions", "proofpr", …). */
  app?: string;
}

export interface CommitStatusInfo {
  context: string;
  state: 'pending' | 'success' | 'failure' | 'error' | string;
  url: string;
}

export interface WorkflowRunInfo {
  id: number;
  name: string;
  event: string;
  status: string;
  conclusion: string | null;
  url: string;
  createdAt: string;
  headSha: string;
}

export interface WorkflowJobInfo {
  id: number;
  name: string;
  conclusion: string | null;
  url: string;
  steps: Array<{ name: string; number: number; conclusion: string | null }>;
}

export interface CiPort {
  listCheckRuns(sha: string): Promise<CheckRunInfo[]>;
  listCommitStatuses(sha: string): Promise<CommitStatusInfo[]>;
  listWorkflowRuns(sha: string): Promise<WorkflowRunInfo[]>;
  listWorkflowJobs(runId: number): Promise<WorkflowJobInfo[]>;
  /** The plain-text log of one Actions job. */
  jobLog(jobId: number): Promise<string>;
  /** Workflow files at `ref` and the events they start on; undefined when they cannot be read. */
  workflowTriggers(ref: string): Promise<Array<{ path: string; events: string[] }> | undefined>;
  /** The PR's current body (a maintainer may have edited it since proofpr wrote it). */
  pullRequestBody(number: number): Promise<string>;
}
