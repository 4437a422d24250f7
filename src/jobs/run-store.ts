/**
 * Runs, webhook deliveries and per-issue leases in SQLite. The lease is the run itself: a unique index over
 * (repo, issue) for runs not yet done means two active runs for one issue cannot exist, even across processes.
 */
import type { Db } from './db.js';
import type { RunLedger, RunStatus } from '../usecases/ports.js';
import { addCostColumn, ownerSpendQuery, spendQuery } from './run-store-spend.js';

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

/** A run as stored: the SQLite row (columns read under their record names) or the Redis hash. */
export type StoredRun = Record<string, string | number | null | undefined>;

const given = (v: StoredRun[string]): string | undefined => (v === null || v === undefined || v === '' ? undefined : String(v));

/** The record of a stored run; absent or empty optional fields are left out. */
export function runRecordOf(f: StoredRun): RunRecord {
  const [verdict, prUrl, commentId, commentUrl] = [given(f.verdict), given(f.prUrl), given(f.commentId), given(f.commentUrl)];
  return {
    id: String(f.id),
    repo: String(f.repo),
    issue: Number(f.issue),
    kind: given(f.kind) ?? 'fix',
    status: (given(f.status) ?? 'queued') as RunStatus,
    ...(verdict ? { verdict } : {}),
    ...(prUrl ? { prUrl } : {}),
    ...(commentId ? { commentId: Number(commentId) } : {}),
    ...(commentUrl ? { commentUrl } : {}),
    createdAt: given(f.createdAt) ?? '',
    updatedAt: given(f.updatedAt) ?? '',
  };
}

/** The runs table's columns under their record names. */
const RECORD_COLUMNS =
  'id, repo, issue, kind, status, verdict, pr_url AS prUrl, comment_id AS commentId, comment_url AS commentUrl, created_at AS createdAt, updated_at AS updatedAt';

/** The columns an update's patch fields are written to. */
const PATCH_COLUMNS = { status: 'status', verdict: 'verdict', prUrl: 'pr_url', commentId: 'comment_id', costUsd: 'cost_usd' } as const;

type Awaitable<T> = T | Promise<T>;

/**
 * Where runs, deliveries and per-issue leases live: the embedded SQLite store (sync) or the shared Redis
 * store every worker sees (async). Callers always await.
 */
export interface SharedRunStore extends RunLedger<RunRecord> {
  get(id: string): Awaitable<RunRecord | undefined>;
}

/** A store's methods answered at once (the embedded store) or always through a Promise (the Redis store). */
type AtOnce<F> = F extends (...a: infer A) => infer R ? (...a: A) => Awaited<R> : F;
type Later<F> = F extends (...a: infer A) => infer R ? (...a: A) => Promise<Awaited<R>> : F;
export type Synced<T> = { [K in keyof T]: AtOnce<T[K]> };
export type Promised<T> = { [K in keyof T]: Later<T[K]> };

/** The embedded SQLite store: every call is synchronous. */
export type RunStore = Synced<Required<SharedRunStore>>;

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
  const ownerSpend = ownerSpendQuery(db);
  const stmts = {
    delivery: db.prepare('INSERT OR IGNORE INTO deliveries (id, received_at) VALUES (?, ?)'),
    forget: db.prepare('DELETE FROM deliveries WHERE id = ?'),
    insert: db.prepare(
      "INSERT INTO runs (id, repo, issue, kind, status, created_at, updated_at) VALUES (@id, @repo, @issue, @kind, 'queued', @ts, @ts)",
    ),
    get: db.prepare<[string], StoredRun>(`SELECT ${RECORD_COLUMNS} FROM runs WHERE id = ?`),
    active: db.prepare<[string, number], StoredRun>(`SELECT ${RECORD_COLUMNS} FROM runs WHERE repo = ? AND issue = ? AND status != 'done'`),
    latest: db.prepare<[string, number], StoredRun>(
      `SELECT ${RECORD_COLUMNS} FROM runs WHERE repo = ? AND issue = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`,
    ),
    comment: db.prepare('UPDATE runs SET comment_id = ?, comment_url = ?, updated_at = ? WHERE id = ?'),
    branch: db.prepare('INSERT OR IGNORE INTO branches (repo, branch, run_id, created_at) VALUES (?, ?, ?, ?)'),
    owns: db.prepare<[string, string], { n: number }>('SELECT COUNT(*) AS n FROM branches WHERE repo = ? COLLATE NOCASE AND branch = ?'),
  };
  const tryCreate = db.transaction((run: { id: string; repo: string; issue: number; kind: string }) => {
    const active = stmts.active.get(run.repo, run.issue);
    if (active) return { ok: false as const, active: runRecordOf(active) };
    stmts.insert.run({ ...run, ts: now().toISOString() });
    return { ok: true as const, run: runRecordOf(stmts.get.get(run.id) as StoredRun) };
  });
  return {
    recordDelivery: (id) => stmts.delivery.run(id, now().toISOString()).changes === 1,
    forgetDelivery: (id) => void stmts.forget.run(id),
    tryCreate: (run) => tryCreate(run),
    get: (id) => {
      const r = stmts.get.get(id);
      return r ? runRecordOf(r) : undefined;
    },
    active: (repo, issue) => {
      const r = stmts.active.get(repo, issue);
      return r ? runRecordOf(r) : undefined;
    },
    latest: (repo, issue) => {
      const r = stmts.latest.get(repo, issue);
      return r ? runRecordOf(r) : undefined;
    },
    setComment: (id, commentId, commentUrl) => void stmts.comment.run(commentId, commentUrl, now().toISOString(), id),
    recordBranch: (repo, branch, runId) => void stmts.branch.run(repo.toLowerCase(), branch, runId, now().toISOString()),
    ownsBranch: (repo, branch) => (stmts.owns.get(repo.toLowerCase(), branch)?.n ?? 0) > 0,
    spendSince: spend,
    ownerSpendSince: ownerSpend,
    update(id, patch) {
      const fields = Object.keys(PATCH_COLUMNS).filter(
        (k) => patch[k as keyof typeof patch] !== undefined,
      ) as (keyof typeof PATCH_COLUMNS)[];
      const sets = ['updated_at = @ts', ...fields.map((k) => `${PATCH_COLUMNS[k]} = @${k}`)];
      db.prepare(`UPDATE runs SET ${sets.join(', ')} WHERE id = @id`).run({ ...patch, id, ts: now().toISOString() });
    },
  };
}
