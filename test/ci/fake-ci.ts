/** A scripted CiPort and a clock that advances instantly: the CI watch is tested without waiting. */
import type { CheckRunInfo, CiPort, CommitStatusInfo, WorkflowJobInfo, WorkflowRunInfo } from '../../src/usecases/ci-types.js';
import type { Clock } from '../../src/usecases/watch-ci.js';

export interface FakeCi extends CiPort {
  /** What the APIs answer at a given fake time (ms since start). */
  at: (t: number) => { checkRuns?: CheckRunInfo[]; statuses?: CommitStatusInfo[]; workflowRuns?: WorkflowRunInfo[] };
  workflows?: Array<{ path: string; events: string[] }>;
  jobs: Record<number, WorkflowJobInfo[]>;
  logs: Record<number, string>;
  polls: number;
  body: string;
}

export function fakeClock(): Clock & { t: number; sleeps: number[] } {
  const c = {
    t: 0,
    sleeps: [] as number[],
    now: () => c.t,
    async sleep(ms: number) {
      c.sleeps.push(ms);
      c.t += ms;
    },
  };
  return c;
}

export function fakeCi(clock: { now(): number }, at: FakeCi['at'], extra: Partial<FakeCi> = {}): FakeCi {
  const ci: FakeCi = {
    at,
    jobs: {},
    logs: {},
    polls: 0,
    body: 'Fixes #12\n\n## proofpr: verified',
    ...extra,
    async listCheckRuns() {
      ci.polls += 1;
      return ci.at(clock.now()).checkRuns ?? [];
    },
    async listCommitStatuses() {
      return ci.at(clock.now()).statuses ?? [];
    },
    async listWorkflowRuns() {
      return ci.at(clock.now()).workflowRuns ?? [];
    },
    async listWorkflowJobs(runId) {
      return ci.jobs[runId] ?? [];
    },
    async jobLog(jobId) {
      return ci.logs[jobId] ?? '';
    },
    async workflowTriggers() {
      return ci.workflows;
    },
    async pullRequestBody() {
      return ci.body;
    },
  };
  return ci;
}

export const check = (name: string, status: string, conclusion: string | null = null, app = 'github-actions'): CheckRunInfo => ({
  id: name.length,
  name,
  status,
  conclusion,
  url: `https://ci.example/${name}`,
  app,
});

/** A failed `CI` workflow run on pull_request for `sha`, as the Actions REST API lists it (the GitHub stand-in's `workflow_runs`). */
export const failedCiRun = (id: number, sha: string, htmlUrl: string, createdAt = '2026-12-01T10:00:00Z') => ({
  id,
  name: 'CI',
  event: 'pull_request',
  status: 'completed',
  conclusion: 'failure',
  html_url: htmlUrl,
  created_at: createdAt,
  head_sha: sha,
});

/** Its failed `lint` job (id 900) with `steps`, as the Actions REST API lists it (the GitHub stand-in's `jobs`). */
export const failedLintJob = (htmlUrl: string, steps: Array<{ name: string; number: number; conclusion: string }>) => ({
  id: 900,
  name: 'lint',
  conclusion: 'failure',
  html_url: htmlUrl,
  steps,
});
