/**
 * Many workers on real Redis: each job once, SIGKILL recovery with one PR, SIGTERM drain, cancel across
 * processes. Workers are child processes running test/scale/synthetic-worker.ts.
 */
import { describe, it, expect, beforeAll, afterEach } from '@jest/globals';
import { createBullmqQueue, type BullmqQueue } from '../../src/jobs/bullmq-queue.js';
import { fakeGitHub, readRecords, requireRedis, startWorker, stop, uniquePrefix, waitFor, REDIS_URL, type WorkerProc } from './helpers.js';
import { tempFile } from '../kit/temp.js';

interface Synthetic {
  repo: string;
  issue: number;
  ms?: number;
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

function producer(prefix: string): BullmqQueue<Synthetic> {
  const q = createBullmqQueue<Synthetic>({ redisUrl: REDIS_URL, name: 'runs', prefix });
  cleanups.push(() => q.close());
  return q;
}

async function worker(env: Record<string, string>): Promise<WorkerProc> {
  const w = await startWorker({ REDIS_URL, ...env });
  cleanups.push(() => stop(w.child, 'SIGKILL'));
  return w;
}

/** Worker `a` (with `env`) and a producer on a fresh queue; `runId` is enqueued and has started when this returns. */
async function oneJobRunning(name: string, env: Record<string, string>, runId: string, dedupeKey: string) {
  const prefix = uniquePrefix(name);
  const file = tempFile('records.jsonl');
  const w = await worker({ PREFIX: prefix, RECORD_FILE: file, WORKER_NAME: 'a', ...env });
  const q = producer(prefix);
  await q.enqueue({ runId, data: { repo: 'o/r', issue: 1 } }, { dedupeKey });
  await waitFor('start', () => readRecords(file).some((r) => r.event === 'start'));
  return { file, w, q };
}

const count = (xs: string[]): Map<string, number> => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());

beforeAll(async () => {
  await requireRedis();
});

describe('scale - BullMQ workers on real Redis', () => {
  it('scale - two workers and 20 jobs run each job exactly once', async () => {
    const prefix = uniquePrefix('twenty');
    const file = tempFile('records.jsonl');
    const gh = await fakeGitHub();
    cleanups.push(() => gh.close());
    const env = { PREFIX: prefix, RECORD_FILE: file, GITHUB_URL: gh.url, JOB_MS: '100', CONCURRENCY: '2' };
    await Promise.all([worker({ ...env, WORKER_NAME: 'a' }), worker({ ...env, WORKER_NAME: 'b' })]);
    const q = producer(prefix);
    const ids = Array.from({ length: 20 }, (_, i) => `run-${i}`);
    for (const [i, runId] of ids.entries()) {
      await q.enqueue({ runId, data: { repo: `o/r${i % 3}`, issue: i } }, { dedupeKey: `o/r#${i}:${runId}` });
    }
    // Enqueueing the same requests again changes nothing.
    for (const [i, runId] of ids.entries()) {
      expect((await q.enqueue({ runId, data: { repo: `o/r${i % 3}`, issue: i } }, { dedupeKey: `o/r#${i}:${runId}` })).deduped).toBe(true);
    }
    await waitFor('20 done', () => readRecords(file).filter((r) => r.event === 'done').length >= 20);
    await new Promise((r) => setTimeout(r, 300));
    const recs = readRecords(file);
    const done = count(recs.filter((r) => r.event === 'done').map((r) => r.runId!));
    const starts = count(recs.filter((r) => r.event === 'start').map((r) => r.runId!));
    expect([...done.keys()].sort()).toEqual([...ids].sort());
    expect([...done.values()].every((n) => n === 1)).toBe(true);
    expect([...starts.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(recs.filter((r) => r.event === 'done').map((r) => r.worker))).toEqual(new Set(['a', 'b']));
    expect(gh.pulls()).toBe(20);
  });

  it('scale - a worker SIGKILLed mid-job: another worker completes it once, attempt 2, and only one PR is opened', async () => {
    const prefix = uniquePrefix('kill');
    const file = tempFile('records.jsonl');
    const gh = await fakeGitHub();
    cleanups.push(() => gh.close());
    const env = {
      PREFIX: prefix,
      RECORD_FILE: file,
      GITHUB_URL: gh.url,
      JOB_MS: '1200',
      LOCK_MS: '1000',
      STALLED_MS: '300',
      LEASE_MS: '5000',
    };
    const a = await worker({ ...env, WORKER_NAME: 'a' });
    const q = producer(prefix);
    await q.enqueue({ runId: 'run-k', data: { repo: 'o/r', issue: 7 } }, { dedupeKey: 'o/r#7:run-k' });
    // Killed after it published, before it finished: the worst moment for a double PR.
    await waitFor('a published', () => readRecords(file).some((r) => r.event === 'published' && r.worker === 'a'));
    a.child.kill('SIGKILL');
    await a.exited;
    await worker({ ...env, WORKER_NAME: 'b' });
    const done = await waitFor('b done', () => readRecords(file).find((r) => r.event === 'done'), 15_000);
    expect(done).toMatchObject({ worker: 'b', runId: 'run-k', attempt: 2 });
    const recs = readRecords(file);
    expect(recs.filter((r) => r.event === 'already-published' && r.worker === 'b')).toHaveLength(1);
    expect(recs.filter((r) => r.event === 'done')).toHaveLength(1);
    expect(gh.pulls()).toBe(1);
  });

  it('scale - SIGTERM drains: the running job finishes within the grace period, nothing new is taken, exit 0', async () => {
    const { file, w, q } = await oneJobRunning('drain', { JOB_MS: '800', DRAIN_GRACE_MS: '5000' }, 'run-d1', 'd1');
    w.child.kill('SIGTERM');
    await waitFor('sigterm seen', () => readRecords(file).some((r) => r.event === 'sigterm'));
    await q.enqueue({ runId: 'run-d2', data: { repo: 'o/r', issue: 2 } }, { dedupeKey: 'd2' });
    expect(await w.exited).toBe(0);
    const recs = readRecords(file);
    expect(recs.filter((r) => r.event === 'done').map((r) => r.runId)).toEqual(['run-d1']);
    expect(recs.some((r) => r.runId === 'run-d2')).toBe(false);
    expect((await q.counts()).waiting).toBe(1);
  });

  it('scale - SIGTERM past the grace period aborts the running job (the handler sees its signal) and exits 0', async () => {
    const { file, w } = await oneJobRunning('grace', { JOB_MS: '20000', DRAIN_GRACE_MS: '300' }, 'run-g', 'g');
    const t0 = Date.now();
    w.child.kill('SIGTERM');
    expect(await w.exited).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(readRecords(file).find((r) => r.event === 'aborted')).toMatchObject({ runId: 'run-g' });
  });

  it('scale - cancel from another process aborts the running job and removes a queued one', async () => {
    const { file, q } = await oneJobRunning('cancel', { JOB_MS: '20000', CONCURRENCY: '1' }, 'run-c1', 'c1');
    await q.enqueue({ runId: 'run-c2', data: { repo: 'o/r', issue: 2 } }, { dedupeKey: 'c2' });
    expect(await q.cancel('run-c2')).toBe('dequeued');
    expect(await q.cancel('run-c1')).toBe('aborted');
    const aborted = await waitFor('aborted', () => readRecords(file).find((r) => r.event === 'aborted'), 5000);
    expect(aborted).toMatchObject({ runId: 'run-c1', worker: 'a' });
    await new Promise((r) => setTimeout(r, 500));
    expect(readRecords(file).some((r) => r.runId === 'run-c2')).toBe(false);
    expect(await q.cancel('run-unknown')).toBe('not_found');
  });
});
