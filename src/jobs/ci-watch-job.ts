/**
 * The App's CI watch: a job of its own on the queue, one short job per look at CI, so no worker sits
 * idle while CI runs. After a verified push the worker enqueues the first look and takes its next job.
 * A look that finds CI still running schedules the next one with backoff (10 s, 20 s, 40 s, then every
 * 60 s, until ci.wait_min) as a timer in this process, not a busy slot; a check_suite / check_run /
 * status webhook for the sha (received by this process) fires that timer at once. When CI is done,
 * what it said goes to the evidence, the PR body, a check run and the status comment; when it failed
 * and ci.fix_rounds allows, a CI fix round is queued as a follow-up job (usecases/ci-fix-round.ts).
 * Queued looks survive a restart (the SQLite queue and BullMQ are durable); a pending timer does not.
 */
import type { RepoConfig } from '../config/repo-config.js';
import type { Trigger } from '../github/trigger.js';
import type { GitHubPort } from '../github/port.js';
import { CHECK_NAME } from '../github/check-run.js';
import type { PublishedRun } from '../usecases/publish-ci.js';
import { publishCi } from '../usecases/publish-ci.js';
import type { CiEvidence } from '../usecases/ci-types.js';
import { ciWatchStep, realClock, type Clock } from '../usecases/watch-ci.js';
import { ciFixStatusComment, planCiFix } from '../usecases/ci-fix-round.js';
import type { FixJob } from './fix-job.js';
import type { QueuedJob } from './queue.js';
import { logger } from '../log.js';

const log = logger('ci-watch-job');

/** One look at the CI of a pushed sha (no `trigger` field: a look takes no issue lease). */
export interface CiWatchJob {
  kind: 'ci-watch';
  owner: string;
  repo: string;
  installationId?: number;
  config: RepoConfig;
  published: PublishedRun;
  /** The trigger of the run that pushed (requester, branches) for a CI fix round. */
  origin: Trigger;
  /** CI fix rounds already run for this PR (0 after the first push). */
  round: number;
  /** When the watch started (clock ms) and which look this is. */
  startedAt: number;
  poll: number;
}

export const isCiWatchJob = (job: unknown): job is CiWatchJob => (job as { kind?: unknown } | null)?.kind === 'ci-watch';

export interface CiWatchStart {
  target: Pick<Trigger, 'owner' | 'repo' | 'installationId'>;
  trigger: Trigger;
  config: RepoConfig;
  published: PublishedRun;
  round?: number;
}

export interface CiWatcher {
  /** After a verified push: queue the first look. */
  start(w: CiWatchStart): void;
  /** The queue's handler for a ci-watch job. */
  handle(job: QueuedJob<CiWatchJob>): Promise<void>;
  /** A webhook said something about `sha` in `repo` ("owner/name"): look again now. */
  notify(repo: string, sha: string): void;
  /** Resolves when no look is queued, running or scheduled (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface CiWatcherDeps {
  githubFor(target: Pick<Trigger, 'owner' | 'repo' | 'installationId'>): Promise<GitHubPort>;
  enqueue(job: { runId: string; data: CiWatchJob | FixJob }, opts: { dedupeKey: string }): Promise<unknown>;
  /** Run leases for a CI fix round (without it no round is started). */
  ledger?: {
    tryCreate(run: { id: string; repo: string; issue: number; kind: string }): unknown;
    setComment(id: string, commentId: number, commentUrl: string): unknown;
  };
  newRunId?: () => string;
  clock?: Clock;
}

const key = (repo: string, sha: string): string => `${repo.toLowerCase()}@${sha}`;

/** CI is done on the sha: publish what it said; when it failed and a round is left, queue a CI fix round. */
async function finished(data: CiWatchJob, github: GitHubPort, ci: CiEvidence, deps: CiWatcherDeps): Promise<void> {
  log.info({ runId: data.published.runId, sha: ci.sha, state: ci.state, round: data.round }, 'CI on the pushed commit');
  if (github.ci) await publishCi(ci, data.published, github, github.ci);
  const plan = await planCiFix(
    { ci, published: data.published, trigger: data.origin, config: data.config, roundsDone: data.round },
    github,
  );
  if (!plan || !deps.ledger || !deps.newRunId) return;
  const runId = deps.newRunId();
  const repo = `${data.owner}/${data.repo}`;
  const lease = (await deps.ledger.tryCreate({ id: runId, repo, issue: plan.trigger.number, kind: 'follow-up' })) as { ok: boolean };
  if (!lease.ok) {
    log.info({ pr: plan.trigger.number, sha: ci.sha }, 'no CI fix round: another run is active on the PR');
    return;
  }
  const comment = await ciFixStatusComment(github, plan, runId, data.config);
  await deps.ledger.setComment(runId, comment.id, comment.url);
  const job: FixJob = {
    mode: 'follow-up',
    trigger: plan.trigger,
    config: data.config,
    statusCommentId: comment.id,
    ciFix: plan.report,
    ciRound: plan.round,
  };
  await deps.enqueue({ runId, data: job }, { dedupeKey: `ci-fix:${repo}:${ci.sha}:${plan.round}` });
  log.info({ runId, pr: plan.trigger.number, sha: ci.sha, round: plan.round }, 'CI fix round queued');
}

/** The first ci-watch job after a verified push. */
function firstLook(w: CiWatchStart, now: number): CiWatchJob {
  return {
    kind: 'ci-watch',
    owner: w.target.owner,
    repo: w.target.repo,
    ...(w.target.installationId !== undefined ? { installationId: w.target.installationId } : {}),
    config: w.config,
    published: w.published,
    origin: w.trigger,
    round: w.round ?? 0,
    startedAt: now,
    poll: 0,
  };
}

/** Work in flight (queued looks, timers): idle() resolves when it is back to none. */
function pendingCounter(): { add(): void; settle(): void; idle(): Promise<void> } {
  let pending = 0;
  let idleWaiters: Array<() => void> = [];
  return {
    add: () => {
      pending += 1;
    },
    settle: () => {
      pending -= 1;
      if (pending <= 0) {
        pending = 0;
        const w = idleWaiters;
        idleWaiters = [];
        for (const f of w) f();
      }
    },
    idle: () => (pending <= 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
  };
}

export function createCiWatcher(deps: CiWatcherDeps): CiWatcher {
  const clock = deps.clock ?? realClock;
  const waiters = shaWaiters();
  const wake = waiters.wake;
  const abort = new AbortController();
  const pending = pendingCounter();
  const settle = pending.settle;
  const enqueueLook = (data: CiWatchJob): void => {
    pending.add();
    const repo = `${data.owner}/${data.repo}`;
    void deps
      .enqueue(
        { runId: `${data.published.runId}.ci${data.poll}`, data },
        { dedupeKey: `ci-watch:${repo}:${data.published.sha}:${data.round}:${data.poll}` },
      )
      .catch((e: unknown) => {
        log.warn({ runId: data.published.runId, sha: data.published.sha, err: (e as Error).message }, 'could not queue a CI look');
        settle();
      });
  };

  const look = async (data: CiWatchJob): Promise<void> => {
    const repo = `${data.owner}/${data.repo}`;
    const github = await deps.githubFor({
      owner: data.owner,
      repo: data.repo,
      ...(data.installationId !== undefined ? { installationId: data.installationId } : {}),
    });
    if (!github.ci || data.config.ci.wait_min <= 0) return;
    const sha = data.published.sha;
    const inp = {
      sha,
      waitMin: data.config.ci.wait_min,
      ownCheckName: CHECK_NAME,
      pushedByAction: false,
      changedFiles: data.published.changedFiles,
      signal: abort.signal,
    };
    const step = await ciWatchStep(inp, { start: data.startedAt, poll: data.poll }, { ci: github.ci, now: clock.now() });
    if ('done' in step) {
      if (abort.signal.aborted) return;
      await finished(data, github, step.done, deps);
      return;
    }
    // The next look: a timer (not a busy worker), cut short by a webhook for this sha.
    pending.add();
    void clock
      .sleep(step.waitMs, wake(repo, sha), abort.signal)
      .then(() => {
        if (!abort.signal.aborted) enqueueLook({ ...data, poll: data.poll + 1 });
      })
      .finally(settle);
  };

  return {
    start(w) {
      if (w.config.ci.wait_min <= 0) return;
      enqueueLook(firstLook(w, clock.now()));
    },
    async handle(job) {
      try {
        await look(job.data);
      } catch (e) {
        log.warn({ runId: job.data.published.runId, sha: job.data.published.sha, err: (e as Error).message }, 'CI watch failed');
      } finally {
        settle();
      }
    },
    notify: waiters.notify,
    idle: pending.idle,
    async close() {
      abort.abort();
      waiters.releaseAll();
    },
  };
}

/** Looks waiting for a webhook about a sha: `wake` resolves when `notify` names that repository and sha. */
function shaWaiters(): { wake(repo: string, sha: string): Promise<void>; notify(repo: string, sha: string): void; releaseAll(): void } {
  const waiters = new Map<string, Array<() => void>>();
  return {
    wake: (repo, sha) =>
      new Promise<void>((resolve) => {
        const k = key(repo, sha);
        waiters.set(k, [...(waiters.get(k) ?? []), resolve]);
      }),
    notify(repo, sha) {
      const k = key(repo, sha);
      const list = waiters.get(k) ?? [];
      waiters.delete(k);
      for (const w of list) w();
    },
    releaseAll() {
      for (const list of waiters.values()) for (const w of list) w();
      waiters.clear();
    },
  };
}
