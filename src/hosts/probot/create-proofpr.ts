/**
 * The App assembled: Probot (webhooks), the run store and the embedded SQLite queue with its workers, in
 * one process. Runs that were in progress when a previous process died are reported as aborted at start.
 * The sweep scheduler enqueues the configured sweeps on their cron schedule (PROOFPR_SWEEP_SCHEDULER=off
 * turns it off); with REDIS_URL, every server may run it: the slot's dedupe key keeps one job per slot.
 * `startServer` puts it behind HTTP; tests drive `probot.receive` directly.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Probot, ProbotOctokit, createNodeMiddleware } from 'probot';
import { proofprApp, type ProofprAppOptions } from './app.js';
import { appPullRequestVerifier, serialVerifier } from './on-pull-request.js';
import { readServerEnv, type ServerEnv } from '../shared/server-env.js';
import { createMetrics, type Metrics } from '../../metrics/metrics.js';
import { withAppOutcomes } from './outcomes-source.js';
import { openDatabase, type Db } from '../../jobs/db.js';
import type { Redis } from 'ioredis';
import { createRunStore, type SharedRunStore } from '../../jobs/run-store.js';
import { createBullmqQueue } from '../../jobs/bullmq-queue.js';
import { createRedisRunStore } from '../../jobs/redis-run-store.js';
import { issueOfJob, repoOfJob } from '../../jobs/job-keys.js';
import { RUNS_QUEUE } from '../shared/queue-names.js';
import { githubForApp } from '../shared/github-for.js';
import { modelFactoryFromEnv } from '../shared/model-factory.js';
import { createSqliteQueue } from '../../jobs/sqlite-queue.js';
import { createJobHandler } from '../../jobs/worker.js';
import { reportInterrupted } from '../../jobs/report-interrupted.js';
import { isSweepJob, type FixJob, type ProofprJob } from '../../jobs/fix-job.js';
import type { QueuedJob } from '../../jobs/queue.js';
import { startSweepScheduler } from './scheduler.js';
import { isLearnJob, type LearnJob } from '../../jobs/learn-job.js';
import { createMemoryStore } from '../../memory/memory-store.js';
import { redisMemoryBlobs, sqliteMemoryBlobs } from '../../memory/memory-blobs.js';
import type { MemoryStore } from '../../memory/types.js';
import { createCiWatcher, isCiWatchJob, type CiWatcher } from '../../jobs/ci-watch-job.js';
import type { Clock } from '../../usecases/watch-ci.js';
import type { Queue } from '../../jobs/queue.js';
import type { ModelFactory, WorkspacePort } from '../../usecases/ports.js';
import type { RunTask } from '../../run/run-task-types.js';
import { runTask as realRunTask } from '../../run/run-task.js';
import { newRunId } from '../../usecases/run-id.js';
import { ensureMirror } from '../../workspace/mirror.js';
import { pushBranch } from '../../workspace/push.js';
import { changedPaths } from '../../workspace/changed-paths.js';
import { changedHunks } from '../../workspace/changed-hunks.js';
import { mergeIntoBranch } from '../../workspace/merge-into-branch.js';
import { logger } from '../../log.js';
import type { Logger } from 'pino';

const log = logger('serve');

export interface StartServerOptions {
  /** Default process.env (CONTRACT §2 variables). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Overrides PORT (0 = any free port). */
  port?: number;
  host?: string;
  /** Jobs run at once (default 1). */
  concurrency?: number;
  runTask?: RunTask;
  workspace?: WorkspacePort;
  modelFactory?: ModelFactory;
  /** Octokit class for Probot (tests pass one with retry and throttling off). */
  Octokit?: typeof ProbotOctokit;
  /** Minimum time between status-comment edits (default 3000 ms). */
  progressIntervalMs?: number;
  onIntake?: ProofprAppOptions['onIntake'];
  /** A queue to use instead of the embedded SQLite one (e.g. BullMQ when REDIS_URL is set). */
  queue?: Queue<ProofprJob>;
  /** Time between sweep-scheduler ticks (default 60 s). */
  sweepIntervalMs?: number;
  /** Probot's logger (default: the pino child logger 'probot'). */
  probotLog?: Logger;
  /** The CI watch's clock (tests advance it instead of waiting). */
  ciClock?: Clock;
  /** Called after each pull_request event (tests): whether a verification started, and its end. */
  onPullRequest?: ProofprAppOptions['onPullRequest'];
}

export interface Proofpr {
  probot: Probot;
  env: ServerEnv;
  runs: SharedRunStore;
  /** The repositories' feedback memory, kept with the runs (SQLite, or Redis with REDIS_URL). */
  memory: MemoryStore;
  queue: Queue<ProofprJob>;
  /** Enqueues the configured sweeps on their schedule; absent when PROOFPR_SWEEP_SCHEDULER=off. */
  scheduler?: ReturnType<typeof startSweepScheduler>;
  /** Webhook middleware (signature check, then the app); calls `next` for other paths. */
  middleware(req: IncomingMessage, res: ServerResponse, next?: () => void): unknown;
  /** CI watches of verified pushes (woken by check_suite / check_run / status webhooks). */
  ciWatcher: CiWatcher;
  /** Prometheus metrics of this process (runs, verdicts, tokens, cost, queue depth). */
  metrics: Metrics;
  /** True when the state store answers (SQLite, or Redis with REDIS_URL) and the queue takes jobs. */
  health(): Promise<HealthReport>;
  /**
   * Stop taking jobs, close the database. Running jobs are aborted at once (their WIP is kept), or, with
   * `drainMs`, allowed that long to finish first (SIGTERM drains as `proofpr worker` does).
   */
  close(opts?: { drainMs?: number }): Promise<void>;
}

export interface HealthReport {
  ok: boolean;
  store: { kind: 'sqlite' | 'redis' | 'injected'; ok: boolean; detail?: string };
  queue: { ok: boolean; detail?: string };
}

/** Resolves to `fallback` when `p` takes longer than `ms` (a Redis that is down never answers a PING). */
function within<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(fallback), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      () => (clearTimeout(t), resolve(fallback)),
    );
  });
}

/** Whether the run store answers: Redis a PING within a second, SQLite a SELECT; an injected store counts as up. */
async function storeHealth(redis: Redis | undefined, db: Db | undefined): Promise<HealthReport['store']> {
  if (redis) {
    const pong = redis.status === 'ready' ? await within(redis.ping(), 1000, 'timeout') : redis.status;
    return { kind: 'redis', ok: pong === 'PONG', ...(pong === 'PONG' ? {} : { detail: `redis: ${pong}` }) };
  }
  if (!db) return { kind: 'injected', ok: true };
  try {
    db.prepare('SELECT 1').get();
    return { kind: 'sqlite', ok: true };
  } catch (e) {
    return { kind: 'sqlite', ok: false, detail: `sqlite: ${(e as Error).message}` };
  }
}

/** The run store, memory and queue: on Redis with REDIS_URL (BullMQ), else on one SQLite file; an injected queue wins. */
function openStores(env: ServerEnv, opts: StartServerOptions) {
  const bull =
    !opts.queue && env.redisUrl
      ? createBullmqQueue<ProofprJob>({ redisUrl: env.redisUrl, name: RUNS_QUEUE, repoOf: repoOfJob, issueOf: issueOfJob })
      : undefined;
  const db = bull ? undefined : openDatabase(env.home);
  const runs: SharedRunStore = bull ? createRedisRunStore(bull.redis) : createRunStore(db!);
  const memory = createMemoryStore(bull ? redisMemoryBlobs(bull.redis) : sqliteMemoryBlobs(db!));
  const sqliteQueue = opts.queue || bull ? undefined : createSqliteQueue<ProofprJob>(db!);
  const queue: Queue<ProofprJob> = opts.queue ?? bull ?? (sqliteQueue as Queue<ProofprJob>);
  return { bull, db, runs, memory, sqliteQueue, queue };
}

/**
 * The SQLite queue cannot resume a job mid-flight (an injected queue, BullMQ, has its own stalled-job
 * recovery): each interrupted fix run says so on its issue; a sweep runs again at its next time.
 */
async function reportInterruptedJobs(
  sqliteQueue: ReturnType<typeof createSqliteQueue<ProofprJob>>,
  githubFor: ReturnType<typeof githubForApp>,
  runs: SharedRunStore,
): Promise<void> {
  for (const job of sqliteQueue.recoverInterrupted()) {
    if (isLearnJob(job.data) || isCiWatchJob(job.data)) continue;
    if (isSweepJob(job.data)) {
      log.warn(
        { runId: job.runId, repo: `${job.data.owner}/${job.data.repo}`, sweep: job.data.sweep },
        'a sweep was interrupted by the previous process; it runs again at its next scheduled time',
      );
      continue;
    }
    await reportInterrupted(job as QueuedJob<FixJob>, { githubFor, runs }).catch((e: unknown) =>
      log.warn({ runId: job.runId, err: (e as Error).message }, 'could not report an interrupted run'),
    );
  }
}

/** Closes the queue: at once (aborting running jobs) without `drainMs`, else after the running jobs finish or `drainMs` passes. */
async function drainQueue(queue: Queue<ProofprJob>, drainMs: number | undefined): Promise<void> {
  if (drainMs === undefined) return queue.close({ abort: true });
  const grace = setTimeout(() => {
    log.warn({ graceMs: drainMs }, 'drain grace is over: aborting the runs still going (their WIP is kept)');
    void queue.close({ abort: true });
  }, drainMs);
  await queue.close();
  clearTimeout(grace);
}

/** Bedrock and Vertex take their credentials from their own SDK's environment (PROOFPR_PROVIDER), not ANTHROPIC_API_KEY. */
const cloudProvider = (env: NodeJS.ProcessEnv): boolean => /^(bedrock|vertex)$/.test(env.PROOFPR_PROVIDER?.trim() ?? '');

/** Serve's own start-up problem: this process runs the jobs (no REDIS_URL workers) and has no model credentials. */
function modelKeyProblems(raw: NodeJS.ProcessEnv, opts: StartServerOptions): string[] {
  const key = raw.ANTHROPIC_API_KEY?.trim();
  if (key || cloudProvider(raw) || opts.modelFactory || (raw.REDIS_URL?.trim() && !opts.queue)) return [];
  return [
    'ANTHROPIC_API_KEY is missing: set it in the environment (or .env) of `proofpr serve` (or PROOFPR_PROVIDER=bedrock|vertex with that cloud’s credentials); runs need it (with REDIS_URL only the workers do)',
  ];
}

/** The App's settings its webhooks need: the web URL, and the per-installation budget when it is set. */
const appSettings = (env: ServerEnv): { webUrl: string; installationMonthlyUsd?: number } => ({
  webUrl: env.webUrl,
  ...(env.installationMonthlyUsd !== undefined ? { installationMonthlyUsd: env.installationMonthlyUsd } : {}),
});

/**
 * The test listeners (onIntake, onPullRequest) and verify.pull_requests: the check proofpr/verified, run
 * in this process one at a time (no model, no queue).
 */
const verifyOptions = (
  env: ServerEnv,
  opts: StartServerOptions,
): Pick<ProofprAppOptions, 'verifyPullRequest' | 'onPullRequest' | 'onIntake'> => ({
  ...(opts.onIntake ? { onIntake: opts.onIntake } : {}),
  verifyPullRequest: serialVerifier(appPullRequestVerifier(env.home, logger('verify'))),
  ...(opts.onPullRequest ? { onPullRequest: opts.onPullRequest } : {}),
});

export async function createProofpr(opts: StartServerOptions = {}): Promise<Proofpr> {
  const raw = opts.env ?? process.env;
  // Every missing or malformed variable in one message, the model credentials included.
  const env = readServerEnv(raw, opts.cwd, modelKeyProblems(raw, opts));
  const probot = new Probot({
    appId: env.appId,
    privateKey: env.privateKey,
    secret: env.webhookSecret,
    baseUrl: env.apiUrl,
    webhookPath: env.webhookPath,
    log: opts.probotLog ?? logger('probot'),
    ...(opts.Octokit ? { Octokit: opts.Octokit } : {}),
  });
  // With REDIS_URL, this process only receives webhooks and enqueues on BullMQ; `proofpr worker` processes
  // run the jobs, and runs/leases/deliveries live in Redis where every worker sees them.
  const { bull, db, runs, memory, sqliteQueue, queue } = openStores(env, opts);
  const githubFor = githubForApp(probot, env.webUrl);
  if (sqliteQueue) await reportInterruptedJobs(sqliteQueue, githubFor, runs);
  // CI watches are jobs on this queue (one short look each); a CI fix round is a follow-up job.
  const ciWatcher = createCiWatcher({
    githubFor,
    enqueue: (j, o) => queue.enqueue(j, o),
    ledger: runs,
    newRunId: () => newRunId(),
    ...(opts.ciClock ? { clock: opts.ciClock } : {}),
  });
  if (!bull) queue.consume(inProcessJobs(opts, env, { githubFor, ciWatcher, runs, memory }), { concurrency: opts.concurrency ?? 1 });

  // Webhooks only ever enqueue fix and learning jobs (and cancel by run id) on the shared queue.
  const fixQueue = queue as unknown as Queue<FixJob | LearnJob>;
  const middleware = await createNodeMiddleware(
    proofprApp({
      runs,
      memory,
      queue: fixQueue,
      newRunId: () => newRunId(),
      ...appSettings(env),
      onCiEvent: (repo, sha) => ciWatcher.notify(repo, sha),
      onConfigPush: (repo) => scheduler?.invalidate(repo),
      ...verifyOptions(env, opts),
    }),
    { probot, webhooksPath: env.webhookPath },
  );
  const schedulerOff = raw.PROOFPR_SWEEP_SCHEDULER?.trim().toLowerCase() === 'off';
  const scheduler = schedulerOff
    ? undefined
    : startSweepScheduler({
        probot,
        queue,
        webUrl: env.webUrl,
        ...(opts.sweepIntervalMs !== undefined ? { intervalMs: opts.sweepIntervalMs } : {}),
      });
  const metrics = withAppOutcomes(createMetrics(), probot, raw);
  metrics.attachQueue(queue);
  let closing = false;
  const health = async (): Promise<HealthReport> => {
    const store = await storeHealth(bull?.redis, db);
    const q = closing ? { ok: false, detail: 'shutting down' } : { ok: true };
    return { ok: store.ok && q.ok, store, queue: q };
  };
  return {
    probot,
    env,
    runs,
    memory,
    queue,
    ...(scheduler ? { scheduler } : {}),
    middleware,
    metrics,
    ciWatcher,
    health,
    async close(closeOpts = {}) {
      closing = true;
      scheduler?.stop();
      await ciWatcher.close();
      await drainQueue(queue, closeOpts.drainMs);
      db?.close();
    },
  };
}

/** Without Redis this process runs the jobs itself: the job handler over the App's GitHub, the CI watcher and the stores. */
function inProcessJobs(
  opts: StartServerOptions,
  env: ReturnType<typeof readServerEnv>,
  parts: Pick<Parameters<typeof createJobHandler>[0], 'githubFor' | 'ciWatcher' | 'runs' | 'memory'> & {
    runs: Parameters<typeof createJobHandler>[0]['branches'];
  },
): ReturnType<typeof createJobHandler> {
  return createJobHandler({
    ...parts,
    workspace: opts.workspace ?? { ensureMirror, pushBranch, changedPaths, changedHunks, mergeIntoBranch },
    runTask: opts.runTask ?? realRunTask,
    modelFactory: opts.modelFactory ?? modelFactoryFromEnv(env, 'serve'),
    branches: parts.runs,
    home: env.home,
    ...(env.modelOverride ? { modelOverride: env.modelOverride } : {}),
    ...(env.installationMonthlyUsd !== undefined ? { installationMonthlyUsd: env.installationMonthlyUsd } : {}),
    ...(opts.progressIntervalMs !== undefined ? { progressIntervalMs: opts.progressIntervalMs } : {}),
  });
}
