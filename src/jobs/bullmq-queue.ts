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
import { DelayedError, Queue as BullQueue, Worker, type Job } from 'bullmq';
import type { CancelResult, JobHandler, JobProgress, Queue } from './queue.js';
import type { Redis } from 'ioredis';
import { createRedisConnections } from './redis-connections.js';
import { acquireLease, acquireSlot, releaseLease, releaseSlot, renewLease } from './lease.js';
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

interface Payload<T> {
  runId: string;
  data: T;
}

export interface BullmqQueue<T> extends Queue<T> {
  /** Jobs by state, for /metrics. */
  counts(): Promise<Record<'waiting' | 'active' | 'delayed' | 'failed' | 'completed', number>>;
  /** The connection used for leases, run records and the publish guard (offline queue on, waits out outages). */
  readonly redis: Redis;
  readonly prefix: string;
}

export function createBullmqQueue<T>(opts: BullmqQueueOptions<T>): BullmqQueue<T> {
  const prefix = opts.prefix ?? 'proofpr';
  const key = (...parts: string[]): string => [prefix, opts.name, ...parts].join(':');
  const jobIdOf = (dedupeKey: string): string => `j-${createHash('sha1').update(dedupeKey).digest('hex').slice(0, 24)}`;
  const leaseTtl = opts.leaseTtlMs ?? 60_000;
  const busyRetry = opts.busyRetryMs ?? 5000;
  const workerId = opts.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const enqueueTimeout = opts.enqueueTimeoutMs ?? 2000;

  const { producer, redis, where, producerReady, end, ...conn } = createRedisConnections(opts.redisUrl, { name: prefix, timeoutMs: enqueueTimeout });
  producer.defineCommand('proofprMarkEnqueued', { numberOfKeys: 2, lua: MARK });
  const queue = new BullQueue<Payload<T>>(opts.name, { connection: producer, prefix });
  queue.on('error', (e: Error) => log.warn({ err: e.message }, 'queue connection error'));

  const running = new Map<string, AbortController>();
  const listeners = new Set<(runId: string, p: JobProgress) => void>();
  let worker: Worker<Payload<T>> | undefined;
  let subscriber: Redis | undefined;

  const withTimeout = <R>(p: Promise<R>, what: string): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`${what}: Redis did not answer within ${enqueueTimeout} ms (is REDIS_URL reachable?)`)), enqueueTimeout);
      p.then(resolve, reject).finally(() => clearTimeout(t));
    });

  const processorFor = (handler: JobHandler<T>) => async (job: Job<Payload<T>>, token?: string, bullSignal?: AbortSignal): Promise<void> => {
    const { runId, data } = job.data;
    if ((await redis.exists(key('cancelled', runId))) === 1) {
      log.info({ runId }, 'job was cancelled before it started');
      return;
    }
    const repo = opts.repoOf?.(data);
    const issue = opts.issueOf?.(data);
    const slotKey = repo ? key('slots', repo) : undefined;
    const leaseKey = issue ? key('lease', issue) : undefined;
    const owner = `${runId}|${workerId}|${job.id ?? ''}`;
    const later = async (why: string): Promise<never> => {
      log.info({ runId, why, retryMs: busyRetry }, 'job postponed');
      await job.moveToDelayed(Date.now() + busyRetry, token);
      throw new DelayedError();
    };
    if (slotKey && !(await acquireSlot(redis, slotKey, runId, opts.perRepoConcurrency ?? 2, leaseTtl))) await later(`repository ${repo} is at its limit`);
    if (leaseKey) {
      const lease = await acquireLease(redis, leaseKey, owner, leaseTtl, `${runId}|`);
      if (!lease.ok) {
        if (slotKey) await releaseSlot(redis, slotKey, runId);
        await later(`issue ${issue} is leased by ${lease.holder}`);
      } else if (lease.previousOwner) log.warn({ runId, previousOwner: lease.previousOwner }, 'took over the lease of an earlier attempt');
    }
    const attempt = await redis.hincrby(key('attempts'), runId, 1);
    await redis.pexpire(key('attempts'), 7 * 24 * 3600 * 1000);
    const controller = new AbortController();
    const abortFromBull = (): void => controller.abort(bullSignal?.reason ?? new Error('job lock lost'));
    bullSignal?.addEventListener('abort', abortFromBull, { once: true });
    running.set(runId, controller);
    const renew = setInterval(() => {
      void (async () => {
        if (slotKey) await acquireSlot(redis, slotKey, runId, Number.MAX_SAFE_INTEGER, leaseTtl);
        if (leaseKey && !(await renewLease(redis, leaseKey, owner, leaseTtl))) {
          log.warn({ runId, issue }, 'issue lease lost: another attempt holds it; aborting this one');
          controller.abort(new Error('issue lease lost'));
        }
      })().catch((e: Error) => log.warn({ runId, err: e.message }, 'lease renewal failed'));
    }, Math.max(50, Math.floor(leaseTtl / 3)));
    try {
      await handler(
        { id: job.id ?? '', runId, data, attempt },
        {
          signal: controller.signal,
          progress: (p) => {
            listeners.forEach((l) => l(runId, p));
            void job.updateProgress(p).catch(() => undefined);
          },
        },
      );
    } finally {
      clearInterval(renew);
      bullSignal?.removeEventListener('abort', abortFromBull);
      running.delete(runId);
      await Promise.all([
        leaseKey ? releaseLease(redis, leaseKey, owner).catch(() => false) : undefined,
        slotKey ? releaseSlot(redis, slotKey, runId).catch(() => undefined) : undefined,
      ]);
    }
  };

  return {
    redis,
    prefix,
    async enqueue(job, { dedupeKey }) {
      await producerReady('enqueue');
      const jobId = jobIdOf(dedupeKey);
      const marker = key('dedupe', dedupeKey);
      // One round trip: the marker (NX) and the runId → jobId mapping, or the job id seen before.
      const seen = await (producer as Redis & MarkCommand).proofprMarkEnqueued(marker, key('run', job.runId), jobId, 7 * 24 * 3600).catch((e: Error) => {
        throw new Error(`enqueue: Redis at ${where} did not answer (${e.message}); nothing was queued`);
      });
      if (seen !== null) return { id: String(seen), deduped: true };
      try {
        await withTimeout(queue.add('run', { runId: job.runId, data: job.data }, { jobId, removeOnComplete: 1000, removeOnFail: 5000 }), 'enqueue');
      } catch (e) {
        await producer.del(marker).catch(() => 0);
        throw e;
      }
      return { id: jobId, deduped: false };
    },
    consume(handler, { concurrency }) {
      worker = new Worker<Payload<T>>(opts.name, processorFor(handler), {
        connection: redis,
        prefix,
        concurrency: Math.max(1, concurrency),
        lockDuration: opts.lockDurationMs ?? 30_000,
        stalledInterval: opts.stalledIntervalMs ?? 30_000,
        maxStalledCount: opts.maxStalledCount ?? 2,
        name: workerId,
      });
      worker.on('error', (e: Error) => log.warn({ err: e.message }, 'worker connection error'));
      worker.on('failed', (j, e: Error) => log.error({ runId: j?.data.runId, err: e.message }, 'job failed'));
      subscriber = conn.subscriber();
      subscriber.on('message', (channel: string, message: string) => {
        if (channel !== CANCEL_CHANNEL) return;
        const c = running.get(message);
        if (c) {
          log.info({ runId: message }, 'cancel received: aborting the running job');
          c.abort(new Error('cancelled'));
        }
      });
      void subscriber.subscribe(CANCEL_CHANNEL).catch((e: Error) => log.warn({ err: e.message }, 'cancel subscription failed'));
    },
    async cancel(runId): Promise<CancelResult> {
      const local = running.get(runId);
      await producerReady('cancel');
      await producer.set(key('cancelled', runId), '1', 'EX', 24 * 3600);
      if (local) {
        local.abort(new Error('cancelled'));
        return 'aborted';
      }
      const jobId = await producer.get(key('run', runId));
      const job = jobId ? await withTimeout(queue.getJob(jobId), 'cancel') : undefined;
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
    },
    onProgress(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    async counts() {
      await producerReady('counts');
      const c = await withTimeout(queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed'), 'counts');
      return { waiting: c.waiting ?? 0, active: c.active ?? 0, delayed: c.delayed ?? 0, failed: c.failed ?? 0, completed: c.completed ?? 0 };
    },
    async close({ abort = false } = {}) {
      if (worker) {
        const drained = worker.close();
        const grace = abort ? 0 : (opts.drainGraceMs ?? 30_000);
        let timer: NodeJS.Timeout | undefined;
        const timedOut = await Promise.race([drained.then(() => false), new Promise<boolean>((ok) => (timer = setTimeout(() => ok(true), grace)))]);
        clearTimeout(timer);
        if (timedOut) {
          log.warn({ running: [...running.keys()] }, 'drain grace period over: aborting running jobs (their WIP is kept)');
          for (const c of running.values()) c.abort(new Error('worker shutting down'));
          await drained;
        }
      }
      if (subscriber) await end(subscriber);
      await queue.close().catch(() => undefined);
      await Promise.all([end(producer), end(redis)]);
    },
  };
}
