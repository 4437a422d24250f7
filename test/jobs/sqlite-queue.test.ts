import { describe, it, expect } from '@jest/globals';
import { createSqliteQueue } from '../../src/jobs/sqlite-queue.js';
import { useDatabase } from './helpers.js';

const until = async (cond: () => boolean, ms = 5000): Promise<void> => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('sqlite queue - durable embedded queue', () => {
  const sqlite = useDatabase('proofpr-queue-');

  it('sqlite queue - runs jobs in order, each once, and dedupes by key', async () => {
    const q = createSqliteQueue<{ n: number }>(sqlite.db);
    expect((await q.enqueue({ runId: 'a', data: { n: 1 } }, { dedupeKey: 'k1' })).deduped).toBe(false);
    expect((await q.enqueue({ runId: 'a', data: { n: 1 } }, { dedupeKey: 'k1' })).deduped).toBe(true);
    await q.enqueue({ runId: 'b', data: { n: 2 } }, { dedupeKey: 'k2' });
    const seen: number[] = [];
    q.consume(async (job) => void seen.push(job.data.n), { concurrency: 1 });
    await until(() => seen.length === 2);
    expect(seen).toEqual([1, 2]);
    await q.close();
  });

  it('sqlite queue - respects the concurrency limit', async () => {
    const q = createSqliteQueue<number>(sqlite.db);
    for (let i = 0; i < 5; i++) await q.enqueue({ runId: `r${i}`, data: i }, { dedupeKey: `k${i}` });
    let now = 0;
    let peak = 0;
    let done = 0;
    q.consume(
      async () => {
        peak = Math.max(peak, ++now);
        await new Promise((r) => setTimeout(r, 20));
        now--;
        done++;
      },
      { concurrency: 2 },
    );
    await until(() => done === 5);
    expect(peak).toBe(2);
    await q.close();
  });

  it('sqlite queue - a restart resumes queued jobs and reports the one that was running as interrupted', async () => {
    const q1 = createSqliteQueue<string>(sqlite.db);
    await q1.enqueue({ runId: 'running', data: 'x' }, { dedupeKey: 'k1' });
    await q1.enqueue({ runId: 'waiting', data: 'y' }, { dedupeKey: 'k2' });
    let started = false;
    q1.consume(
      async () => {
        started = true;
        await new Promise(() => {}); // the process "dies" while this runs
      },
      { concurrency: 1 },
    );
    await until(() => started);
    sqlite.reopen(); // simulate the crash: nothing marks the job finished
    const q2 = createSqliteQueue<string>(sqlite.db);
    const interrupted = q2.recoverInterrupted();
    expect(interrupted.map((j) => j.runId)).toEqual(['running']);
    const seen: string[] = [];
    q2.consume(async (job) => void seen.push(job.runId), { concurrency: 1 });
    await until(() => seen.length === 1);
    expect(seen).toEqual(['waiting']);
    expect(q2.recoverInterrupted()).toEqual([]);
    await q2.close();
  });

  it('sqlite queue - cancel dequeues a waiting job and aborts a running one; progress reaches listeners', async () => {
    const q = createSqliteQueue<string>(sqlite.db);
    await q.enqueue({ runId: 'r1', data: 'a' }, { dedupeKey: 'k1' });
    await q.enqueue({ runId: 'r2', data: 'b' }, { dedupeKey: 'k2' });
    const ran: string[] = [];
    let aborted = false;
    const progress: string[] = [];
    q.onProgress((runId, p) => progress.push(`${runId}:${String(p.phase)}`));
    q.consume(
      async (job, ctx) => {
        ran.push(job.runId);
        ctx.progress({ phase: 'working' });
        await new Promise<void>((r) => ctx.signal.addEventListener('abort', () => r()));
        aborted = true;
      },
      { concurrency: 1 },
    );
    await until(() => ran.length === 1);
    expect(await q.cancel('r2')).toBe('dequeued');
    expect(await q.cancel('r1')).toBe('aborted');
    await until(() => aborted);
    expect(await q.cancel('nope')).toBe('not_found');
    await q.close();
    expect(ran).toEqual(['r1']);
    expect(progress).toEqual(['r1:working']);
  });
});
