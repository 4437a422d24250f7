/** BullmqQueue in one process on real Redis: dedupe, per-issue lease, per-repository limit, fast failure without Redis. */
import { describe, it, expect, beforeAll, afterEach } from '@jest/globals';
import { createBullmqQueue, type BullmqQueue, type BullmqQueueOptions } from '../../src/jobs/bullmq-queue.js';
import { requireRedis, uniquePrefix, waitFor, REDIS_URL } from '../scale/helpers.js';
import { freePort } from '../kit/host-net.js';

interface D {
  repo: string;
  issue: number;
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});
beforeAll(async () => {
  await requireRedis();
});

function queue(name: string, extra: Partial<BullmqQueueOptions<D>> = {}): BullmqQueue<D> {
  const q = createBullmqQueue<D>({
    redisUrl: REDIS_URL,
    name: 'runs',
    prefix: uniquePrefix(name),
    repoOf: (d) => d.repo,
    issueOf: (d) => `${d.repo}#${d.issue}`,
    busyRetryMs: 50,
    ...extra,
  });
  cleanups.push(() => q.close({ abort: true }));
  return q;
}

/** A handler that records how many jobs run at once, overall and per key. */
function tracker(ms: number, keyOf: (d: D) => string) {
  let now = 0;
  let max = 0;
  const perKey = new Map<string, number>();
  let maxPerKey = 0;
  const done: string[] = [];
  const attempts: number[] = [];
  return {
    handler: async (job: { runId: string; data: D; attempt: number }) => {
      const k = keyOf(job.data);
      now += 1;
      perKey.set(k, (perKey.get(k) ?? 0) + 1);
      max = Math.max(max, now);
      maxPerKey = Math.max(maxPerKey, perKey.get(k)!);
      await new Promise((r) => setTimeout(r, ms));
      perKey.set(k, perKey.get(k)! - 1);
      now -= 1;
      done.push(job.runId);
      attempts.push(job.attempt);
    },
    stats: () => ({ max, maxPerKey, done, attempts }),
  };
}

describe('bullmq queue - on real Redis', () => {
  it('bullmq queue - enqueue with a seen dedupe key returns the same job id with deduped: true', async () => {
    const q = queue('dedupe');
    const a = await q.enqueue({ runId: 'r1', data: { repo: 'o/r', issue: 1 } }, { dedupeKey: 'o/r#1:d1' });
    const b = await q.enqueue({ runId: 'r2', data: { repo: 'o/r', issue: 1 } }, { dedupeKey: 'o/r#1:d1' });
    expect(a.deduped).toBe(false);
    expect(b).toEqual({ id: a.id, deduped: true });
    expect((await q.counts()).waiting).toBe(1);
  });

  it('bullmq queue - a burst of enqueues before the connection is up waits once and queues every job', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error): number => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const q = queue('burst');
      const res = await Promise.all(
        Array.from({ length: 40 }, (_, i) => q.enqueue({ runId: `r${i}`, data: { repo: 'o/r', issue: i } }, { dedupeKey: `k${i}` })),
      );
      expect(res.filter((r) => !r.deduped)).toHaveLength(40);
      expect((await q.counts()).waiting).toBe(40);
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('bullmq queue - two jobs for one issue never run at the same time (issue lease)', async () => {
    const q = queue('lease');
    const t = tracker(150, (d) => `${d.repo}#${d.issue}`);
    q.consume(t.handler, { concurrency: 4 });
    for (let i = 0; i < 3; i++) await q.enqueue({ runId: `r${i}`, data: { repo: 'o/r', issue: 5 } }, { dedupeKey: `k${i}` });
    await waitFor('3 done', () => t.stats().done.length === 3);
    expect(t.stats().maxPerKey).toBe(1);
    expect(t.stats().attempts).toEqual([1, 1, 1]);
  });

  it('bullmq queue - at most perRepoConcurrency jobs of one repository run at once; other repositories are not held up', async () => {
    const q = queue('repo', { perRepoConcurrency: 2 });
    const t = tracker(150, (d) => d.repo);
    q.consume(t.handler, { concurrency: 6 });
    for (let i = 0; i < 5; i++) await q.enqueue({ runId: `a${i}`, data: { repo: 'o/a', issue: i } }, { dedupeKey: `a${i}` });
    await q.enqueue({ runId: 'b0', data: { repo: 'o/b', issue: 0 } }, { dedupeKey: 'b0' });
    await waitFor('6 done', () => t.stats().done.length === 6);
    expect(t.stats().maxPerKey).toBe(2);
    expect(t.stats().done.indexOf('b0')).toBeLessThan(3);
  });

  it('bullmq queue - progress reaches local listeners; cancel of a running job fires its signal', async () => {
    const q = queue('progress');
    const seen: unknown[] = [];
    q.onProgress((runId, p) => seen.push({ runId, ...p }));
    let aborted = false;
    q.consume(
      async (job, ctx) => {
        ctx.progress({ phase: 'working' });
        await new Promise<void>((r) => ctx.signal.addEventListener('abort', () => r(), { once: true }));
        aborted = true;
      },
      { concurrency: 1 },
    );
    await q.enqueue({ runId: 'p1', data: { repo: 'o/r', issue: 1 } }, { dedupeKey: 'p1' });
    await waitFor('progress', () => seen.length > 0);
    expect(seen[0]).toEqual({ runId: 'p1', phase: 'working' });
    expect(await q.cancel('p1')).toBe('aborted');
    await waitFor('aborted', () => aborted);
  });

  it('bullmq queue - enqueue without a reachable Redis rejects within enqueueTimeoutMs (the webhook can answer 5xx)', async () => {
    const port = await freePort();
    const q = createBullmqQueue<D>({ redisUrl: `redis://127.0.0.1:${port}`, name: 'runs', enqueueTimeoutMs: 300 });
    cleanups.push(() => q.close());
    const t0 = Date.now();
    await expect(q.enqueue({ runId: 'x', data: { repo: 'o/r', issue: 1 } }, { dedupeKey: 'x' })).rejects.toThrow(/not reachable/);
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  it('bullmq queue - a REDIS_URL that is not redis:// is refused with the variable named', () => {
    expect(() => createBullmqQueue<D>({ redisUrl: 'http://localhost:6379', name: 'runs' })).toThrow(/REDIS_URL must start with redis:\/\//);
  });
});
