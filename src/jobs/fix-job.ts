/**
 * What a queued job carries. A fix job: the parsed trigger, the config validated when it fired, and its
 * status comment (jobs queued before `kind` existed have none and are fix jobs). A sweep job: a configured
 * sweep fired by `serve`'s scheduler; the config is read again when it runs.
 */
import type { RepoConfig } from '../config/repo-config.js';
import type { Trigger } from '../github/trigger.js';
import type { LearnJob } from './learn-job.js';
import type { CiWatchJob } from './ci-watch-job.js';
import type { CiFailureReport } from '../usecases/ci-failure-report.js';

export interface FixJob {
  kind?: 'fix';
  mode: 'fix' | 'plan' | 'follow-up';
  trigger: Trigger;
  config: RepoConfig;
  statusCommentId: number;
  /** A CI fix round (follow-up mode): CI's failure on the PR head is the task; the round's number. */
  ciFix?: CiFailureReport;
  ciRound?: number;
}

export interface SweepJob {
  kind: 'sweep';
  owner: string;
  repo: string;
  installationId: number;
  /** The sweep's `name` in `.github/proofpr.yml`. */
  sweep: string;
  runId: string;
  /** The cron fire time (ISO) this job is for. */
  firedAt?: string;
}

export type ProofprJob = FixJob | SweepJob | LearnJob | CiWatchJob;

export const isSweepJob = (job: ProofprJob): job is SweepJob => job.kind === 'sweep';
