import type { Job } from 'bullmq';
import { DelayedError } from 'bullmq';
import type { Redis } from 'ioredis';
import { logger } from '../log.js';
import { acquireLease, acquireSlot, releaseLease, releaseSlot, renewLease } from './lease.js';
import type { JobHandler, JobProgress } from './queue.js';

const log = logger('bullmq-queue');

export interface Payload<T> {
  runId: string;
  data: T;
}

/** What the processor of a BullMQ queue needs (createBullmqQueue builds it once). */
export interface ProcessorContext<T> {
  redis: Redis;
  /** A proofpr key in this queue's namespace. */
  key: (...parts: string[]) => string;
  workerId: string;
  leaseTtl: number;
  busyRetry: number;
  perRepoConcurrency: number;
  repoOf?: ((data: T) => string | undefined) | undefined;
  issueOf?: ((data: T) => string | undefined) | undefined;
  /** Running jobs by run id (cancel and close abort them). */
  running: Map<string, AbortController>;
  listeners: Set<(runId: string, p: JobProgress) => void>;
}

/** The slot and lease a job holds while it runs. */
interface Claim {
  runId: string;
  slotKey: string | undefined;
  leaseKey: string | undefined;
  issue: string | undefined;
  owner: string;
}

/**
 * Takes the job's repository slot and its issue's lease; when either is busy the job goes back to the
 * delayed set for `busyRetry` (throws DelayedError, as BullMQ expects).
 */
async function claim<T>(cx: ProcessorContext<T>, job: Job<Payload<T>>, token: string | undefined): Promise<Claim> {
  const { redis, key } = cx;
  const { runId, data } = job.data;
  const repo = cx.repoOf?.(data);
  const issue = cx.issueOf?.(data);
  const slotKey = repo ? key('slots', repo) : undefined;
  const leaseKey = issue ? key('lease', issue) : undefined;
  const owner = `${runId}|${cx.workerId}|${job.id ?? ''}`;
  const later = async (why: string): Promise<never> => {
    log.info({ runId, why, retryMs: cx.busyRetry }, 'job postponed');
    await job.moveToDelayed(Date.now() + cx.busyRetry, token);
    throw new DelayedError();
  };
  if (slotKey && !(await acquireSlot(redis, slotKey, runId, cx.perRepoConcurrency, cx.leaseTtl)))
    await later(`repository ${repo} is at its limit`);
  if (leaseKey) {
    const lease = await acquireLease(redis, leaseKey, owner, cx.leaseTtl, `${runId}|`);
    if (!lease.ok) {
      if (slotKey) await releaseSlot(redis, slotKey, runId);
      await later(`issue ${issue} is leased by ${lease.holder}`);
    } else if (lease.previousOwner) log.warn({ runId, previousOwner: lease.previousOwner }, 'took over the lease of an earlier attempt');
  }
  return { runId, slotKey, leaseKey, issue, owner };
}

/** Renews the slot and the lease every third of their TTL; a lost lease aborts the run. Returns the stop function. */
function keepClaim<T>(cx: ProcessorContext<T>, c: Claim, controller: AbortController): () => void {
  const { redis, leaseTtl } = cx;
  const renew = setInterval(
    () => {
      void (async () => {
        if (c.slotKey) await acquireSlot(redis, c.slotKey, c.runId, Number.MAX_SAFE_INTEGER, leaseTtl);
        if (c.leaseKey && !(await renewLease(redis, c.leaseKey, c.owner, leaseTtl))) {
          log.warn({ runId: c.runId, issue: c.issue }, 'issue lease lost: another attempt holds it; aborting this one');
          controller.abort(new Error('issue lease lost'));
        }
      })().catch((e: Error) => log.warn({ runId: c.runId, err: e.message }, 'lease renewal failed'));
    },
    Math.max(50, Math.floor(leaseTtl / 3)),
  );
  return () => clearInterval(renew);
}

async function releaseClaim<T>(cx: ProcessorContext<T>, c: Claim): Promise<void> {
  await Promise.all([
    c.leaseKey ? releaseLease(cx.redis, c.leaseKey, c.owner).catch(() => false) : undefined,
    c.slotKey ? releaseSlot(cx.redis, c.slotKey, c.runId).catch(() => undefined) : undefined,
  ]);
}

/** The BullMQ processor: skips a cancelled run, claims slot and lease, counts the attempt, runs the handler, releases. */
export const processorFor =
  <T>(cx: ProcessorContext<T>, handler: JobHandler<T>) =>
  async (job: Job<Payload<T>>, token?: string, bullSignal?: AbortSignal): Promise<void> => {
    const { redis, key, running } = cx;
    const { runId, data } = job.data;
    if ((await redis.exists(key('cancelled', runId))) === 1) {
      log.info({ runId }, 'job was cancelled before it started');
      return;
    }
    const c = await claim(cx, job, token);
    const attempt = await redis.hincrby(key('attempts'), runId, 1);
    await redis.pexpire(key('attempts'), 7 * 24 * 3600 * 1000);
    const controller = new AbortController();
    const abortFromBull = (): void => controller.abort(bullSignal?.reason ?? new Error('job lock lost'));
    bullSignal?.addEventListener('abort', abortFromBull, { once: true });
    running.set(runId, controller);
    const stopRenewing = keepClaim(cx, c, controller);
    try {
      await handler(
        { id: job.id ?? '', runId, data, attempt },
        {
          signal: controller.signal,
          progress: (p) => {
            cx.listeners.forEach((l) => l(runId, p));
            void job.updateProgress(p).catch(() => undefined);
          },
        },
      );
    } finally {
      stopRenewing();
      bullSignal?.removeEventListener('abort', abortFromBull);
      running.delete(runId);
      await releaseClaim(cx, c);
    }
  };
