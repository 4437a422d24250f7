/**
 * The `Queue` on BullMQ/Redis, for many worker processes on many machines.
 * - connections: see redis-connections.ts (ioredis; the producer fails fast, the worker's side waits out outages).
 * - enqueue: a `SET NX` marker per dedupe key (exact `deduped` answer) + a deterministic BullMQ jobId.
 * - consume: BullMQ Worker (concurrency per process; global = concurrency × processes). Before running, a job
 *   takes a repository slot (`perRepoConcurrency`) and its issue's lease; when either is busy it goes back to
 *   the delayed set for `busyRetryMs`. Both are renewed while it runs; a lost lease aborts the run.
 * - faults: a SIGKILLed worker's job is re-run elsewhere by BullMQ's stalled checker; the new attempt takes
 *   over the lease of its own run and sees `attempt > 1`. close() drains: no new jobs, running ones get
 *   `drainGraceMs`, then their signal fires (the handler keeps its WIP).
 * - cancel: a queued job is removed; a running one is aborted through pub/sub on `proofpr:cancel`, wherever it runs.
 */
import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Queue as BullQueue, Worker } from 'bullmq';
import type { CancelResult, JobHandler, Queue } from './queue.js';
import type { Redis } from 'ioredis';
import { createRedisConnections, type RedisConnections } from './redis-connections.js';
import { processorFor, type Payload, type ProcessorContext } from './bullmq-processor.js';
import { logger } from '../log.js';

const log = logger('bullmq-queue');

export const CANCEL_CHANNEL = 'proofpr:cancel';

const MARK = `
local seen = redis.call('GET', KEYS[1])
if seen then return seen end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[2])
return false`;

/** MARK as an ioredis command (EVALSHA, with EVAL after a restart emptied the script cache). */
interface MarkCommand {
  proofprMarkEnqueued(marker: string, runKey: string, jobId: string, ttlSeconds: number): Promise<string | null>;
}

export interface BullmqQueueOptions<T> {
  redisUrl: string;
  /** Queue name (BullMQ queue and key namespace). */
  name: string;
  /** Redis key prefix for BullMQ and proofpr keys (default "proofpr"); tests use a unique one. */
  prefix?: string;
  /** The repository a job works on ("owner/name"), for the per-repository limit. */
  repoOf?: (data: T) => string | undefined;
  /** The issue a job works on ("owner/name#12"), for the per-issue lease. */
  issueOf?: (data: T) => string | undefined;
  /** Jobs of one repository running at once across all workers (default 2). */
  perRepoConcurrency?: number;
  /** BullMQ job lock; a worker silent this long loses its job to the stalled checker (default 30000 ms). */
  lockDurationMs?: number;
  /** How often workers look for stalled jobs (default 30000 ms). */
  stalledIntervalMs?: number;
  /** Times a job may stall (worker death) and still be re-run (default 2). */
  maxStalledCount?: number;
  /** Issue lease and repository slot TTL, renewed every third of it (default 60000 ms). */
  leaseTtlMs?: number;
  /** Delay before a job whose repository is full or whose issue is leased tries again (default 5000 ms). */
  busyRetryMs?: number;
  /** close(): time running jobs get to finish before their signal fires (default 30000 ms). */
  drainGraceMs?: number;
  /** enqueue() rejects after this long without Redis (default 2000 ms). */
  enqueueTimeoutMs?: number;
  /** This process's name in leases (default host:pid:random). */
  workerId?: string;
}

export interface BullmqQueue<T> extends Queue<T> {
  /** Jobs by state, for /metrics. */
  counts(): Promise<Record<'waiting' | 'active' | 'delayed' | 'failed' | 'completed', number>>;
  /** The connection used for leases, run records and the publish guard (offline queue on, waits out outages). */
  readonly redis: Redis;
  readonly prefix: string;
}

/** The queue's connections, settings and the jobs this process runs (createBullmqQueue builds it once). */
interface QueueContext<T> extends ProcessorContext<T> {
  opts: BullmqQueueOptions<T>;
  prefix: string;
  conn: RedisConnections;
  producer: Redis;
  queue: BullQueue<Payload<T>>;
  /** Rejects after enqueueTimeoutMs naming `what` (for BullMQ calls on the producer). */
  withTimeout: <R>(p: Promise<R>, what: string) => Promise<R>;
  worker: Worker<Payload<T>> | undefined;
  subscriber: Redis | undefined;
}

function queueContext<T>(opts: BullmqQueueOptions<T>): QueueContext<T> {
  const prefix = opts.prefix ?? 'proofpr';
  const enqueueTimeout = opts.enqueueTimeoutMs ?? 2000;
  const conn = createRedisConnections(opts.redisUrl, { name: prefix, timeoutMs: enqueueTimeout });
  const { producer, redis } = conn;
  producer.defineCommand('proofprMarkEnqueued', { numberOfKeys: 2, lua: MARK });
  const queue = new BullQueue<Payload<T>>(opts.name, { connection: producer, prefix });
  queue.on('error', (e: Error) => log.warn({ err: e.message }, 'queue connection error'));
  const withTimeout = <R>(p: Promise<R>, what: string): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`${what}: Redis did not answer within ${enqueueTimeout} ms (is REDIS_URL reachable?)`)),
        enqueueTimeout,
      );
      p.then(resolve, reject).finally(() => clearTimeout(t));
    });
  return {
    opts,
    prefix,
    conn,
    producer,
    redis,
    queue,
    withTimeout,
    key: (...parts: string[]): string => [prefix, opts.name, ...parts].join(':'),
    workerId: opts.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    leaseTtl: opts.leaseTtlMs ?? 60_000,
    busyRetry: opts.busyRetryMs ?? 5000,
    perRepoConcurrency: opts.perRepoConcurrency ?? 2,
    repoOf: opts.repoOf,
    issueOf: opts.issueOf,
    running: new Map(),
    listeners: new Set(),
    worker: undefined,
    subscriber: undefined,
  };
}

const jobIdOf = (dedupeKey: string): string => `j-${createHash('sha1').update(dedupeKey).digest('hex').slice(0, 24)}`;

async function enqueueJob<T>(
  cx: QueueContext<T>,
  job: { runId: string; data: T },
  dedupeKey: string,
): Promise<{ id: string; deduped: boolean }> {
  const { producer, key } = cx;
  await cx.conn.producerReady('enqueue');
  const jobId = jobIdOf(dedupeKey);
  const marker = key('dedupe', dedupeKey);
  // One round trip: the marker (NX) and the runId → jobId mapping, or the job id seen before.
  const seen = await (producer as Redis & MarkCommand)
    .proofprMarkEnqueued(marker, key('run', job.runId), jobId, 7 * 24 * 3600)
    .catch((e: Error) => {
      throw new Error(`enqueue: Redis at ${cx.conn.where} did not answer (${e.message}); nothing was queued`);
    });
  if (seen !== null) return { id: String(seen), deduped: true };
  try {
    await cx.withTimeout(
      cx.queue.add('run', { runId: job.runId, data: job.data }, { jobId, removeOnComplete: 1000, removeOnFail: 5000 }),
      'enqueue',
    );
  } catch (e) {
    await producer.del(marker).catch(() => 0);
    throw e;
  }
  return { id: jobId, deduped: false };
}

/** Starts this process's BullMQ Worker and the cancel subscription. */
function startWorker<T>(cx: QueueContext<T>, handler: JobHandler<T>, concurrency: number): void {
  const { opts } = cx;
  const worker = new Worker<Payload<T>>(opts.name, processorFor(cx, handler), {
    connection: cx.redis,
    prefix: cx.prefix,
    concurrency: Math.max(1, concurrency),
    lockDuration: opts.lockDurationMs ?? 30_000,
    stalledInterval: opts.stalledIntervalMs ?? 30_000,
    maxStalledCount: opts.maxStalledCount ?? 2,
    name: cx.workerId,
  });
  cx.worker = worker;
  worker.on('error', (e: Error) => log.warn({ err: e.message }, 'worker connection error'));
  worker.on('failed', (j, e: Error) => log.error({ runId: j?.data.runId, err: e.message }, 'job failed'));
  const subscriber = cx.conn.subscriber();
  cx.subscriber = subscriber;
  subscriber.on('message', (channel: string, message: string) => {
    if (channel !== CANCEL_CHANNEL) return;
    const c = cx.running.get(message);
    if (c) {
      log.info({ runId: message }, 'cancel received: aborting the running job');
      c.abort(new Error('cancelled'));
    }
  });
  void subscriber.subscribe(CANCEL_CHANNEL).catch((e: Error) => log.warn({ err: e.message }, 'cancel subscription failed'));
}

/** Marks the run cancelled; aborts it here, removes it from the queue, or tells the worker running it. */
async function cancelRun<T>(cx: QueueContext<T>, runId: string): Promise<CancelResult> {
  const { producer, key } = cx;
  const local = cx.running.get(runId);
  await cx.conn.producerReady('cancel');
  await producer.set(key('cancelled', runId), '1', 'EX', 24 * 3600);
  if (local) {
    local.abort(new Error('cancelled'));
    return 'aborted';
  }
  const jobId = await producer.get(key('run', runId));
  const job = jobId ? await cx.withTimeout(cx.queue.getJob(jobId), 'cancel') : undefined;
  const state = job ? await job.getState() : 'unknown';
  if (job && (state === 'waiting' || state === 'delayed' || state === 'prioritized')) {
    await job.remove().catch(() => undefined);
    return 'dequeued';
  }
  if (state === 'active') {
    await producer.publish(CANCEL_CHANNEL, runId);
    return 'aborted';
  }
  return 'not_found';
}

/** Drains the worker (running jobs get drainGraceMs, then their signal fires), then ends every connection. */
async function closeQueue<T>(cx: QueueContext<T>, abort: boolean): Promise<void> {
  const { worker, subscriber, running } = cx;
  const { end } = cx.conn;
  if (worker) {
    const drained = worker.close();
    const grace = abort ? 0 : (cx.opts.drainGraceMs ?? 30_000);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      drained.then(() => false),
      new Promise<boolean>((ok) => (timer = setTimeout(() => ok(true), grace))),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      log.warn({ running: [...running.keys()] }, 'drain grace period over: aborting running jobs (their WIP is kept)');
      for (const c of running.values()) c.abort(new Error('worker shutting down'));
      await drained;
    }
  }
  if (subscriber) await end(subscriber);
  await cx.queue.close().catch(() => undefined);
  await Promise.all([end(cx.producer), end(cx.redis)]);
}

export function createBullmqQueue<T>(opts: BullmqQueueOptions<T>): BullmqQueue<T> {
  const cx = queueContext(opts);
  return {
    redis: cx.redis,
    prefix: cx.prefix,
    enqueue: (job, { dedupeKey }) => enqueueJob(cx, job, dedupeKey),
    consume: (handler, { concurrency }) => startWorker(cx, handler, concurrency),
    cancel: (runId) => cancelRun(cx, runId),
    onProgress(l) {
      cx.listeners.add(l);
      return () => cx.listeners.delete(l);
    },
    async counts() {
      await cx.conn.producerReady('counts');
      const c = await cx.withTimeout(cx.queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed'), 'counts');
      return {
        waiting: c.waiting ?? 0,
        active: c.active ?? 0,
        delayed: c.delayed ?? 0,
        failed: c.failed ?? 0,
        completed: c.completed ?? 0,
      };
    },
    close: ({ abort = false } = {}) => closeQueue(cx, abort),
  };
}
