/**
 * Runs, webhook deliveries and per-issue leases in SQLite. The lease is the run itself: a unique index over
 * (repo, issue) for runs not yet done means two active runs for one issue cannot exist, even across processes.
 */
import type { Db } from './db.js';
import type { MonthSpend, RunLedger, RunStatus } from '../usecases/ports.js';
import { addCostColumn, spendQuery } from './run-store-spend.js';

export interface RunRecord {
  id: string;
  repo: string;
  issue: number;
  kind: string;
  status: RunStatus;
  verdict?: string;
  prUrl?: string;
  commentId?: number;
  commentUrl?: string;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  repo: string;
  issue: number;
  kind: string;
  status: RunStatus;
  verdict: string | null;
  pr_url: string | null;
  comment_id: number | null;
  comment_url: string | null;
  created_at: string;
  updated_at: string;
}

function toRecord(r: Row): RunRecord {
  return {
    id: r.id,
    repo: r.repo,
    issue: r.issue,
    kind: r.kind,
    status: r.status,
    ...(r.verdict !== null ? { verdict: r.verdict } : {}),
    ...(r.pr_url !== null ? { prUrl: r.pr_url } : {}),
    ...(r.comment_id !== null ? { commentId: r.comment_id } : {}),
    ...(r.comment_url !== null ? { commentUrl: r.comment_url } : {}),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

type Awaitable<T> = T | Promise<T>;

/**
 * Where runs, deliveries and per-issue leases live: the embedded SQLite store (sync) or the shared Redis
 * store every worker sees (async). Callers always await.
 */
export interface SharedRunStore extends RunLedger {
  /** Record a webhook delivery id; false when it was seen before (a redelivery starts nothing). */
  recordDelivery(deliveryId: string): Awaitable<boolean>;
  /** Undo recordDelivery when handling failed before anything was queued, so GitHub's redelivery can retry. */
  forgetDelivery?(deliveryId: string): Awaitable<void>;
  /** Start a run holding the issue's lease; when another run is active, returns it instead. */
  tryCreate(run: {
    id: string;
    repo: string;
    issue: number;
    kind: string;
  }): Awaitable<{ ok: true; run: RunRecord } | { ok: false; active: RunRecord }>;
  get(id: string): Awaitable<RunRecord | undefined>;
  /** The queued or running run of an issue, if any. */
  active(repo: string, issue: number): Awaitable<RunRecord | undefined>;
  latest(repo: string, issue: number): Awaitable<RunRecord | undefined>;
  setComment(id: string, commentId: number, commentUrl: string): Awaitable<void>;
}

/** The embedded SQLite store: every call is synchronous. */
export interface RunStore extends SharedRunStore {
  update(runId: string, patch: { status?: RunStatus; verdict?: string; prUrl?: string; commentId?: number; costUsd?: number }): void;
  spendSince(repo: string, since: string): MonthSpend;
  recordDelivery(deliveryId: string): boolean;
  forgetDelivery?(deliveryId: string): void;
  tryCreate(run: {
    id: string;
    repo: string;
    issue: number;
    kind: string;
  }): { ok: true; run: RunRecord } | { ok: false; active: RunRecord };
  get(id: string): RunRecord | undefined;
  active(repo: string, issue: number): RunRecord | undefined;
  latest(repo: string, issue: number): RunRecord | undefined;
  setComment(id: string, commentId: number, commentUrl: string): void;
  recordBranch(repo: string, branch: string, runId: string): void;
  ownsBranch(repo: string, branch: string): boolean;
}

export function createRunStore(db: Db, now: () => Date = () => new Date()): RunStore {
  db.exec(`
    CREATE TABLE IF NOT EXISTS runs (
      id TEXT PRIMARY KEY, repo TEXT NOT NULL, issue INTEGER NOT NULL, kind TEXT NOT NULL,
      status TEXT NOT NULL, verdict TEXT, pr_url TEXT, comment_id INTEGER, comment_url TEXT,
      created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
    CREATE UNIQUE INDEX IF NOT EXISTS runs_lease ON runs(repo, issue) WHERE status != 'done';
    CREATE INDEX IF NOT EXISTS runs_issue ON runs(repo, issue, created_at);
    CREATE TABLE IF NOT EXISTS deliveries (id TEXT PRIMARY KEY, received_at TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS branches (repo TEXT NOT NULL, branch TEXT NOT NULL, run_id TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (repo, branch));
  `);
  addCostColumn(db);
  const spend = spendQuery(db);
  const stmts = {
    delivery: db.prepare('INSERT OR IGNORE INTO deliveries (id, received_at) VALUES (?, ?)'),
    forget: db.prepare('DELETE FROM deliveries WHERE id = ?'),
    insert: db.prepare(
      "INSERT INTO runs (id, repo, issue, kind, status, created_at, updated_at) VALUES (@id, @repo, @issue, @kind, 'queued', @ts, @ts)",
    ),
    get: db.prepare<[string], Row>('SELECT * FROM runs WHERE id = ?'),
    active: db.prepare<[string, number], Row>("SELECT * FROM runs WHERE repo = ? AND issue = ? AND status != 'done'"),
    latest: db.prepare<[string, number], Row>(
      'SELECT * FROM runs WHERE repo = ? AND issue = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
    ),
    comment: db.prepare('UPDATE runs SET comment_id = ?, comment_url = ?, updated_at = ? WHERE id = ?'),
    branch: db.prepare('INSERT OR IGNORE INTO branches (repo, branch, run_id, created_at) VALUES (?, ?, ?, ?)'),
    owns: db.prepare<[string, string], { n: number }>('SELECT COUNT(*) AS n FROM branches WHERE repo = ? COLLATE NOCASE AND branch = ?'),
  };
  const tryCreate = db.transaction((run: { id: string; repo: string; issue: number; kind: string }) => {
    const active = stmts.active.get(run.repo, run.issue);
    if (active) return { ok: false as const, active: toRecord(active) };
    stmts.insert.run({ ...run, ts: now().toISOString() });
    return { ok: true as const, run: toRecord(stmts.get.get(run.id) as Row) };
  });
  return {
    recordDelivery: (id) => stmts.delivery.run(id, now().toISOString()).changes === 1,
    forgetDelivery: (id) => void stmts.forget.run(id),
    tryCreate: (run) => tryCreate(run),
    get: (id) => {
      const r = stmts.get.get(id);
      return r ? toRecord(r) : undefined;
    },
    active: (repo, issue) => {
      const r = stmts.active.get(repo, issue);
      return r ? toRecord(r) : undefined;
    },
    latest: (repo, issue) => {
      const r = stmts.latest.get(repo, issue);
      return r ? toRecord(r) : undefined;
    },
    setComment: (id, commentId, commentUrl) => void stmts.comment.run(commentId, commentUrl, now().toISOString(), id),
    recordBranch: (repo, branch, runId) => void stmts.branch.run(repo.toLowerCase(), branch, runId, now().toISOString()),
    ownsBranch: (repo, branch) => (stmts.owns.get(repo.toLowerCase(), branch)?.n ?? 0) > 0,
    spendSince: spend,
    update(id, patch) {
      const sets: string[] = ['updated_at = @ts'];
      if (patch.status !== undefined) sets.push('status = @status');
      if (patch.verdict !== undefined) sets.push('verdict = @verdict');
      if (patch.prUrl !== undefined) sets.push('pr_url = @prUrl');
      if (patch.commentId !== undefined) sets.push('comment_id = @commentId');
      if (patch.costUsd !== undefined) sets.push('cost_usd = @costUsd');
      db.prepare(`UPDATE runs SET ${sets.join(', ')} WHERE id = @id`).run({
        id,
        ts: now().toISOString(),
        status: null,
        verdict: null,
        prUrl: null,
        commentId: null,
        costUsd: null,
        ...patch,
      });
    },
  };
}
