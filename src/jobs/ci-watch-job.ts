/**
 * The App's CI watches: one per verified push, off the worker slots (a worker that pushed hands the watch
 * over and takes its next job; no worker sits idle while CI runs). Each watch polls with backoff; a
 * check_suite / check_run / status webhook for its sha wakes it at once. Watches live in this process:
 * one that was running when the process stopped is not resumed (the PR keeps its local evidence).
 */
import type { RepoConfig } from '../config/repo-config.js';
import type { Trigger } from '../github/trigger.js';
import type { GitHubPort } from '../github/port.js';
import type { PublishedRun } from '../usecases/publish-ci.js';
import type { CiEvidence } from '../usecases/ci-types.js';
import { ciAfterPush } from '../usecases/ci-after-push.js';
import { realClock, type Clock } from '../usecases/watch-ci.js';
import { logger } from '../log.js';

const log = logger('ci-watch-job');

export interface CiWatchJob {
  target: Pick<Trigger, 'owner' | 'repo' | 'installationId'>;
  config: RepoConfig;
  published: PublishedRun;
}

export interface CiWatcher {
  start(job: CiWatchJob): void;
  /** A webhook said something about `sha` in `repo` ("owner/name"): wake its watches. */
  notify(repo: string, sha: string): void;
  /** Resolves when no watch is running (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface CiWatcherDeps {
  githubFor(target: Pick<Trigger, 'owner' | 'repo' | 'installationId'>): Promise<GitHubPort>;
  clock?: Clock;
  /** Called with each finished watch (the CI fix round hooks in here). */
  onResult?: (job: CiWatchJob, ci: CiEvidence) => Promise<void>;
}

const key = (repo: string, sha: string): string => `${repo.toLowerCase()}@${sha}`;

export function createCiWatcher(deps: CiWatcherDeps): CiWatcher {
  const running = new Set<Promise<void>>();
  const waiters = new Map<string, Array<() => void>>();
  const abort = new AbortController();
  const wake = (repo: string) => (sha: string): Promise<void> =>
    new Promise<void>((resolve) => {
      const k = key(repo, sha);
      waiters.set(k, [...(waiters.get(k) ?? []), resolve]);
    });
  const run = async (job: CiWatchJob): Promise<void> => {
    const repo = `${job.target.owner}/${job.target.repo}`;
    const github = await deps.githubFor(job.target);
    const ci = await ciAfterPush(job.published, job.config, { github, clock: deps.clock ?? realClock, pushedByAction: false, wake: wake(repo), signal: abort.signal });
    waiters.delete(key(repo, job.published.sha));
    if (ci) await deps.onResult?.(job, ci);
  };
  return {
    start(job) {
      const p = run(job)
        .catch((e: unknown) => log.warn({ runId: job.published.runId, sha: job.published.sha, err: (e as Error).message }, 'CI watch failed'))
        .finally(() => running.delete(p));
      running.add(p);
    },
    notify(repo, sha) {
      const k = key(repo, sha);
      const list = waiters.get(k) ?? [];
      waiters.delete(k);
      for (const w of list) w();
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
    async close() {
      abort.abort();
      for (const list of waiters.values()) for (const w of list) w();
      waiters.clear();
      await this.idle();
    },
  };
}
