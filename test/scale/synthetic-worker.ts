/**
 * A worker process for the scale tests and the bench: BullmqQueue with a synthetic handler that sleeps,
 * "publishes" once per run id through the Redis publish guard (POST /pulls to a fake GitHub), and appends
 * what it did to RECORD_FILE as JSON lines. SIGTERM drains (DRAIN_GRACE_MS) and exits 0.
 */
import { appendFileSync } from 'node:fs';
import { request } from 'node:http';
import { createBullmqQueue } from '../../src/jobs/bullmq-queue.js';
import { createRedisRunStore } from '../../src/jobs/redis-run-store.js';

interface Synthetic {
  repo: string;
  issue: number;
  ms?: number;
}

const env = process.env;
const num = (k: string, d: number): number => (env[k] ? Number(env[k]) : d);
const worker = env.WORKER_NAME ?? `w${process.pid}`;
const record = (event: string, extra: Record<string, unknown> = {}): void => {
  if (env.RECORD_FILE) appendFileSync(env.RECORD_FILE, JSON.stringify({ event, worker, t: Date.now(), ...extra }) + '\n');
};
const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
const postPull = (runId: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const req = request(`${env.GITHUB_URL}/repos/o/r/pulls`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('error', reject);
    req.end(JSON.stringify({ runId }));
  });

const queue = createBullmqQueue<Synthetic>({
  redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  name: env.QUEUE_NAME ?? 'runs',
  prefix: env.PREFIX ?? 'proofpr-test',
  repoOf: (d) => d.repo,
  issueOf: (d) => `${d.repo}#${d.issue}`,
  perRepoConcurrency: num('PER_REPO', 100),
  lockDurationMs: num('LOCK_MS', 30_000),
  stalledIntervalMs: num('STALLED_MS', 30_000),
  leaseTtlMs: num('LEASE_MS', 60_000),
  busyRetryMs: num('BUSY_RETRY_MS', 200),
  drainGraceMs: num('DRAIN_GRACE_MS', 30_000),
  workerId: worker,
});
const runs = createRedisRunStore(queue.redis, { prefix: queue.prefix });
const jobMs = num('JOB_MS', 100);

queue.consume(
  async (job, ctx) => {
    const ms = job.data.ms ?? jobMs;
    record('start', { runId: job.runId, attempt: job.attempt });
    await sleep(ms / 2, ctx.signal);
    if (ctx.signal.aborted) return record('aborted', { runId: job.runId, reason: String((ctx.signal.reason as Error)?.message) });
    if (env.GITHUB_URL) {
      if (await runs.claimPublish(job.runId, worker)) {
        await postPull(job.runId);
        await runs.markPublished(job.runId, `pr-for-${job.runId}`);
        record('published', { runId: job.runId });
      } else record('already-published', { runId: job.runId });
    }
    await sleep(ms / 2, ctx.signal);
    if (ctx.signal.aborted) return record('aborted', { runId: job.runId, reason: String((ctx.signal.reason as Error)?.message) });
    record('done', { runId: job.runId, attempt: job.attempt });
  },
  { concurrency: num('CONCURRENCY', 1) },
);
record('ready');
process.stdout.write('ready\n');

process.on('SIGTERM', () => {
  record('sigterm');
  void queue.close().then(() => {
    record('exit');
    process.exit(0);
  });
});
