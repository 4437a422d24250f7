/**
 * `proofpr worker`: a queue worker only (CONTRACT §3). Takes FixJobs from BullMQ on REDIS_URL and runs them
 * with the same job handler as `proofpr serve`; run records go to the Redis run store every process sees.
 * A job handed over after its previous worker died (attempt > 1) is reported as interrupted (WIP kept), not
 * re-run, so one request never yields two PRs. SIGTERM/SIGINT drain (PROOFPR_DRAIN_GRACE_MS, default 30 s)
 * and exit 0. /metrics and /healthz listen on PROOFPR_METRICS_PORT when it is set.
 * Resolves to the exit code: 0 after a clean shutdown, 2 for a configuration error.
 */
import { Probot } from 'probot';
import { readServerEnv, ServerEnvError } from '../shared/server-env.js';
import { RUNS_QUEUE } from '../shared/queue-names.js';
import { githubForApp } from '../shared/github-for.js';
import { modelFactoryFromEnv } from '../shared/model-factory.js';
import { createBullmqQueue } from '../../jobs/bullmq-queue.js';
import { createRedisRunStore } from '../../jobs/redis-run-store.js';
import { createCiWatcher, isCiWatchJob } from '../../jobs/ci-watch-job.js';
import { newRunId } from '../../usecases/run-id.js';
import { issueOfJob, repoOfJob } from '../../jobs/job-keys.js';
import { createJobHandler } from '../../jobs/worker.js';
import { reportInterrupted } from '../../jobs/report-interrupted.js';
import { isSweepJob, type FixJob, type ProofprJob } from '../../jobs/fix-job.js';
import { isLearnJob } from '../../jobs/learn-job.js';
import { createMemoryStore } from '../../memory/memory-store.js';
import { redisMemoryBlobs } from '../../memory/memory-blobs.js';
import type { JobHandler, QueuedJob } from '../../jobs/queue.js';
import { runTask } from '../../run/run-task.js';
import { ensureMirror } from '../../workspace/mirror.js';
import { pushBranch } from '../../workspace/push.js';
import { mergeIntoBranch } from '../../workspace/merge-into-branch.js';
import { createMetrics } from '../../metrics/metrics.js';
import { serveMetrics } from '../../metrics/handler.js';
import { logger } from '../../log.js';

const log = logger('worker-command');

export interface WorkerCommandOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Jobs this process runs at once (default 1). Global concurrency = concurrency × worker processes. */
  concurrency?: number;
}

function fail(msg: string): number {
  process.stderr.write(`proofpr worker: ${msg}\n`);
  return 2;
}

/**
 * What a worker does with a job: a CI look always runs; a job another worker started (attempt > 1) is
 * skipped when it is a lesson or a sweep, and reported as interrupted when it is a fix; the rest runs.
 */
function workerHandler(run: JobHandler<ProofprJob>, deps: Parameters<typeof reportInterrupted>[1]): JobHandler<ProofprJob> {
  const { githubFor, runs } = deps;
  return async (job, ctx) => {
    // A look at CI is safe to repeat, whoever took it first.
    if (isCiWatchJob(job.data)) return run(job, ctx);
    if (job.attempt > 1 && isLearnJob(job.data)) {
      log.warn(
        { runId: job.runId, attempt: job.attempt },
        'learning job handed over from a worker that stopped: skipped (a lost lesson costs less than a duplicate reply)',
      );
      return;
    }
    if (job.attempt > 1 && isSweepJob(job.data)) {
      // A sweep slot is not worth a second attempt: it runs again at its next scheduled time.
      log.warn({ runId: job.runId, attempt: job.attempt }, 'sweep job handed over from a worker that stopped: skipped until its next slot');
      return;
    }
    if (job.attempt > 1) {
      log.warn({ runId: job.runId, attempt: job.attempt }, 'job handed over from a worker that stopped: reporting it as interrupted');
      await reportInterrupted(job as QueuedJob<FixJob>, { githubFor, runs });
      ctx.progress({ phase: 'done', verdict: 'aborted' });
      return;
    }
    await run(job, ctx);
  };
}

export async function workerCommand(opts: WorkerCommandOptions = {}): Promise<number> {
  const raw = opts.env ?? process.env;
  const redisUrl = raw.REDIS_URL?.trim();
  if (!redisUrl)
    return fail(
      'REDIS_URL is not set: a worker takes its jobs from Redis (e.g. REDIS_URL=redis://127.0.0.1:6379); without Redis, `proofpr serve` runs jobs itself',
    );
  const metricsPort = raw.PROOFPR_METRICS_PORT;
  const grace = raw.PROOFPR_DRAIN_GRACE_MS;
  const badNumber = numberProblem(metricsPort, grace);
  if (badNumber) return fail(badNumber);
  let env;
  try {
    // A worker receives no webhooks: the secret is not needed, everything else is validated as for `serve`.
    env = readServerEnv({ WEBHOOK_SECRET: 'unused-by-worker', ...raw }, opts.cwd);
  } catch (e) {
    if (e instanceof ServerEnvError) return fail(e.message);
    throw e;
  }
  let queue;
  try {
    queue = createBullmqQueue<FixJob>({
      redisUrl,
      name: RUNS_QUEUE,
      repoOf: repoOfJob,
      issueOf: issueOfJob,
      ...(grace ? { drainGraceMs: Number(grace) } : {}),
    });
  } catch (e) {
    return fail((e as Error).message);
  }
  const store = createRedisRunStore(queue.redis);
  // The usecases do not await run updates: failures are logged by the store, never left unhandled.
  const runs = {
    update: (id: string, patch: Parameters<typeof store.update>[1]): void => void store.update(id, patch).catch(() => undefined),
  };
  const probot = new Probot({ appId: env.appId, privateKey: env.privateKey, baseUrl: env.apiUrl, log: logger('probot') });
  const githubFor = githubForApp(probot, env.webUrl);
  // CI watches are jobs on the shared queue; webhooks reach `serve`, not workers, so a worker's looks
  // follow the backoff only (no early wake).
  const ciWatcher = createCiWatcher({
    githubFor,
    enqueue: (j, o) => (queue as unknown as { enqueue: (job: typeof j, opts: typeof o) => Promise<unknown> }).enqueue(j, o),
    ledger: store,
    newRunId: () => newRunId(),
  });
  const run = createJobHandler({
    githubFor,
    ciWatcher,
    workspace: { ensureMirror, pushBranch, mergeIntoBranch },
    runTask,
    modelFactory: modelFactoryFromEnv(env, 'worker'),
    runs,
    branches: store,
    memory: createMemoryStore(redisMemoryBlobs(queue.redis)),
    home: env.home,
    ...(env.modelOverride ? { modelOverride: env.modelOverride } : {}),
    ...(env.installationMonthlyUsd !== undefined ? { installationMonthlyUsd: env.installationMonthlyUsd } : {}),
  });
  const handler = workerHandler(run, { githubFor, runs });
  const metrics = createMetrics();
  metrics.attachQueue(queue);
  queue.consume(handler, { concurrency: opts.concurrency ?? 1 });
  let metricsServer: Awaited<ReturnType<typeof serveMetrics>> | undefined;
  if (metricsPort) {
    const redis = queue.redis;
    metricsServer = await serveMetrics(metrics, Number(metricsPort), () => redisAnswers(redis));
  }
  process.stderr.write(
    `proofpr worker: taking jobs from ${redisUrl.replace(/\/\/[^@]*@/, '//***@')} (concurrency ${opts.concurrency ?? 1}${metricsServer ? `, metrics on port ${metricsServer.port}` : ''})\n`,
  );
  await untilSignalled(() => Promise.all([queue.close(), ciWatcher.close()]), metricsServer?.server);
  return 0;
}

/** The number variables a worker reads, each a plain number when set. */
function numberProblem(metricsPort: string | undefined, grace: string | undefined): string | undefined {
  if (metricsPort !== undefined && metricsPort !== '' && !/^\d+$/.test(metricsPort))
    return 'PROOFPR_METRICS_PORT must be a port number (e.g. 9464)';
  if (grace !== undefined && grace !== '' && !/^\d+$/.test(grace)) return 'PROOFPR_DRAIN_GRACE_MS must be a number of milliseconds';
  return undefined;
}

/** Runs until SIGINT or SIGTERM, then drains: closes the queue and the CI watcher, then the metrics server. */
function untilSignalled(close: () => Promise<unknown>, server: { close(cb: () => void): unknown } | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.stderr.write('proofpr worker: draining (no new jobs; running ones get the grace period)\n');
      void close()
        .catch((e: Error) => log.error({ err: e.message }, 'error while closing the queue'))
        .finally(() => (server ? server.close(() => resolve()) : resolve()));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** Healthy when Redis answers a PING within 2 s (a connection still being made gets that long to come up). */
async function redisAnswers(redis: {
  status: string;
  ping(): Promise<string>;
  once(ev: 'ready', f: () => void): unknown;
}): Promise<boolean> {
  const within = <T>(p: Promise<T>, ms: number): Promise<T | undefined> =>
    Promise.race([p, new Promise<undefined>((r) => setTimeout(() => r(undefined), ms).unref())]);
  if (redis.status !== 'ready') await within(new Promise<void>((r) => redis.once('ready', () => r())), 2000);
  if (redis.status !== 'ready') return false;
  return (
    (await within(
      redis.ping().catch(() => undefined),
      2000,
    )) === 'PONG'
  );
}
