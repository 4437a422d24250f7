/**
 * Redis restarted under a running worker (a private redis-server on its own port, never the shared one):
 * enqueue fails fast while it is down (so the webhook answers 5xx and GitHub redelivers), and the worker
 * reconnects (ioredis) and runs what is enqueued after the restart; its cancel subscription is restored too.
 */
import { describe, it, expect, beforeAll, afterEach } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { createBullmqQueue } from '../../src/jobs/bullmq-queue.js';
import { readRecords, requireRedis, startPrivateRedis, startWorker, stop, uniquePrefix, waitFor } from './helpers.js';
import { freePort } from '../kit/host-net.js';
import { tempFile } from '../kit/temp.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

beforeAll(async () => {
  await requireRedis();
});

describe('scale - Redis restart', () => {
  it('scale - a worker survives a Redis restart; enqueue during the outage rejects within the timeout; cancel still reaches it', async () => {
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    let redis: ChildProcess = await startPrivateRedis(port);
    cleanups.push(() => stop(redis, 'SIGKILL'));
    const prefix = uniquePrefix('restart');
    const file = tempFile('records.jsonl');
    const w = await startWorker({ REDIS_URL: url, PREFIX: prefix, RECORD_FILE: file, JOB_MS: '50', WORKER_NAME: 'a' });
    cleanups.push(() => stop(w.child, 'SIGKILL'));
    const q = createBullmqQueue<{ repo: string; issue: number; ms?: number }>({
      redisUrl: url,
      name: 'runs',
      prefix,
      enqueueTimeoutMs: 1000,
    });
    cleanups.push(() => q.close());

    for (let i = 0; i < 3; i++) await q.enqueue({ runId: `before-${i}`, data: { repo: 'o/r', issue: i } }, { dedupeKey: `b${i}` });
    await waitFor('3 done before', () => readRecords(file).filter((r) => r.event === 'done').length === 3);

    await stop(redis, 'SIGKILL');
    const t0 = Date.now();
    await expect(q.enqueue({ runId: 'during', data: { repo: 'o/r', issue: 9 } }, { dedupeKey: 'during' })).rejects.toThrow(
      /not reachable|did not answer|Connection is closed/,
    );
    expect(Date.now() - t0).toBeLessThan(3000);

    redis = await startPrivateRedis(port);
    for (let i = 0; i < 3; i++) {
      const res = await waitFor(
        `enqueue after-${i}`,
        () => q.enqueue({ runId: `after-${i}`, data: { repo: 'o/r', issue: 10 + i } }, { dedupeKey: `a${i}` }).catch(() => undefined),
        10_000,
      );
      expect(res.deduped).toBe(false);
    }
    await waitFor(
      '3 done after',
      () => readRecords(file).filter((r) => r.event === 'done' && r.runId?.startsWith('after-')).length === 3,
      20_000,
    );
    const done = readRecords(file)
      .filter((r) => r.event === 'done')
      .map((r) => r.runId);
    expect(done.sort()).toEqual(['after-0', 'after-1', 'after-2', 'before-0', 'before-1', 'before-2']);

    // The worker's pub/sub connection re-subscribed after the restart: a cancel from this process reaches it.
    await q.enqueue({ runId: 'after-long', data: { repo: 'o/r', issue: 20, ms: 20_000 } }, { dedupeKey: 'long' });
    await waitFor('long job started', () => readRecords(file).some((r) => r.event === 'start' && r.runId === 'after-long'));
    expect(await q.cancel('after-long')).toBe('aborted');
    await waitFor('long job aborted', () => readRecords(file).find((r) => r.event === 'aborted' && r.runId === 'after-long'), 5000);
    expect(w.child.exitCode).toBeNull();
  });
});
