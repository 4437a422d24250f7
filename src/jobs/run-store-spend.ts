/**
 * Spend across runs in the SQLite run store: each run's cost (written when it ends) summed per repository,
 * or per owner (every `owner/*` repository: an installation's account), and period.
 */
import type { Db } from './db.js';
import type { MonthSpend } from '../usecases/ports.js';

/** Stores made before costs were kept gain the column (NULL: no cost recorded). */
export function addCostColumn(db: Db): void {
  const cols = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('runs')").all();
  if (!cols.some((c) => c.name === 'cost_usd')) db.exec('ALTER TABLE runs ADD COLUMN cost_usd REAL');
}

type SpendRow = { cost: number | null; runs: number; verified: number | null };

const SUMS = "SELECT SUM(cost_usd) AS cost, COUNT(*) AS runs, SUM(verdict = 'verified') AS verified FROM runs";

const spendOf = (r: SpendRow | undefined): MonthSpend => ({ costUsd: r?.cost ?? 0, runs: r?.runs ?? 0, verified: r?.verified ?? 0 });

export function spendQuery(db: Db): (repo: string, since: string) => MonthSpend {
  const stmt = db.prepare<[string, string], SpendRow>(`${SUMS} WHERE repo = ? AND created_at >= ?`);
  return (repo, since) => spendOf(stmt.get(repo, since));
}

/** Every repository of `owner` (GitHub logins are case-insensitive; no LIKE, so `_` in a name is no wildcard). */
export function ownerSpendQuery(db: Db): (owner: string, since: string) => MonthSpend {
  const stmt = db.prepare<[number, string, string], SpendRow>(`${SUMS} WHERE lower(substr(repo, 1, ?)) = ? AND created_at >= ?`);
  return (owner, since) => {
    const prefix = `${owner.toLowerCase()}/`;
    return spendOf(stmt.get(prefix.length, prefix, since));
  };
}
