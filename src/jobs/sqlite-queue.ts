/**
 * The embedded, durable queue: jobs live in SQLite next to the runs. A restart resumes queued jobs; a job
 * that was running when the process died cannot be resumed mid-flight, so `recoverInterrupted()` marks it
 * aborted and hands it back for reporting (its worktree and WIP are left in place).
 */
import type { Db } from './db.js';
import type { CancelResult, JobHandler, JobProgress, Queue, QueuedJob } from './queue.js';
import { logger } from '../log.js';

const log = logger('queue');

interface Row {
  id: number;
  run_id: string;
  data: string;
  attempts: number;
}

export interface SqliteQueue<T> extends Queue<T> {
  /** Jobs left `running` by a previous process: marked aborted and returned (call once at start, before consume). */
  recoverInterrupted(): QueuedJob<T>[];
  /** Jobs by state, for /metrics (the same states as the BullMQ queue's). */
  counts(): Promise<Record<string, number>>;
}

/** Jobs by state in the BullMQ queue's terms: queued → waiting, running → active, aborted → failed, cancelled → completed. */
function jobCounts(db: Db): Record<string, number> {
  const rows = db.prepare<[], { status: string; n: number }>('SELECT status, COUNT(*) AS n FROM jobs GROUP BY status').all();
  const n = Object.fromEntries(rows.map((r) => [r.status, r.n])) as Record<string, number | undefined>;
  return {
    waiting: n.queued ?? 0,
    active: n.running ?? 0,
    delayed: 0,
    failed: (n.failed ?? 0) + (n.aborted ?? 0),
    completed: (n.done ?? 0) + (n.cancelled ?? 0),
  };
}

/** The jobs table (created when missing) and the statements the queue runs on it. */
function jobStatements(db: Db) {
  db.exec(`
    CREATE TABLE IF NOT EXISTS jobs (
      id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, dedupe_key TEXT NOT NULL UNIQUE,
      data TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, error TEXT,
      created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS jobs_status ON jobs(status, id);
  `);
  return {
    byKey: db.prepare<[string], { id: number }>('SELECT id FROM jobs WHERE dedupe_key = ?'),
    insert: db.prepare("INSERT INTO jobs (run_id, dedupe_key, data, status, created_at, updated_at) VALUES (?, ?, ?, 'queued', ?, ?)"),
    claim: db.prepare<[string], Row>(
      "UPDATE jobs SET status = 'running', attempts = attempts + 1, updated_at = ? WHERE id = (SELECT id FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1) RETURNING id, run_id, data, attempts",
    ),
    finish: db.prepare('UPDATE jobs SET status = ?, error = ?, updated_at = ? WHERE id = ?'),
    dequeue: db.prepare("UPDATE jobs SET status = 'cancelled', updated_at = ? WHERE run_id = ? AND status = 'queued'"),
    interrupted: db.prepare<[], Row>("SELECT id, run_id, data, attempts FROM jobs WHERE status = 'running' ORDER BY id"),
  };
}

/** Run one job through the handler; its final status and error (never throws). */
async function runJob<T>(
  handler: JobHandler<T>,
  job: QueuedJob<T>,
  signal: AbortSignal,
  progress: (p: JobProgress) => void,
): Promise<{ status: string; error: string | null }> {
  try {
    await handler(job, { signal, progress });
    return { status: signal.aborted ? 'cancelled' : 'done', error: null };
  } catch (e) {
    const error = (e as Error).message ?? String(e);
    log.error({ runId: job.runId, err: error }, 'job failed');
    return { status: signal.aborted ? 'cancelled' : 'failed', error };
  }
}

export function createSqliteQueue<T>(db: Db, opts: { pollMs?: number } = {}): SqliteQueue<T> {
  const ts = (): string => new Date().toISOString();
  const stmts = jobStatements(db);
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  const listeners = new Set<(runId: string, p: JobProgress) => void>();
  let handler: JobHandler<T> | undefined;
  let concurrency = 1;
  let closed = false;
  let poll: NodeJS.Timeout | undefined;

  const toJob = (r: Row): QueuedJob<T> => ({ id: String(r.id), runId: r.run_id, data: JSON.parse(r.data) as T, attempt: r.attempts });

  const pump = (): void => {
    while (!closed && handler && running.size < concurrency) {
      const row = stmts.claim.get(ts());
      if (!row) return;
      const job = toJob(row);
      const controller = new AbortController();
      const progress = (p: JobProgress): void => listeners.forEach((l) => l(job.runId, p));
      const done = runJob(handler, job, controller.signal, progress).then(({ status, error }) => {
        stmts.finish.run(status, error, ts(), row.id);
        running.delete(job.runId);
        setImmediate(pump);
      });
      running.set(job.runId, { controller, done });
    }
  };

  return {
    async enqueue(job, { dedupeKey }) {
      const existing = stmts.byKey.get(dedupeKey);
      if (existing) return { id: String(existing.id), deduped: true };
      const res = stmts.insert.run(job.runId, dedupeKey, JSON.stringify(job.data), ts(), ts());
      setImmediate(pump);
      return { id: String(res.lastInsertRowid), deduped: false };
    },
    consume(h, { concurrency: c }) {
      handler = h;
      concurrency = Math.max(1, c);
      poll = setInterval(pump, opts.pollMs ?? 1000);
      poll.unref();
      setImmediate(pump);
    },
    async cancel(runId): Promise<CancelResult> {
      const r = running.get(runId);
      if (r) {
        r.controller.abort(new Error('cancelled'));
        return 'aborted';
      }
      return stmts.dequeue.run(ts(), runId).changes > 0 ? 'dequeued' : 'not_found';
    },
    onProgress(l) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    counts: async () => jobCounts(db),
    recoverInterrupted() {
      const rows = stmts.interrupted.all();
      for (const r of rows) stmts.finish.run('aborted', 'the process stopped while the job was running', ts(), r.id);
      return rows.map(toJob);
    },
    async close({ abort = false } = {}) {
      closed = true;
      clearInterval(poll);
      if (abort) for (const r of running.values()) r.controller.abort(new Error('queue closed'));
      await Promise.all([...running.values()].map((r) => r.done));
    },
  };
}
