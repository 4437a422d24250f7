/** Spend across runs in the SQLite run store: each run's cost (written when it ends) summed per repository and period. */
import type { Db } from './db.js';
import type { MonthSpend } from '../usecases/ports.js';

/** Stores made before costs were kept gain the column (NULL: no cost recorded). */
export function addCostColumn(db: Db): void {
  const cols = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('runs')").all();
  if (!cols.some((c) => c.name === 'cost_usd')) db.exec('ALTER TABLE runs ADD COLUMN cost_usd REAL');
}

export function spendQuery(db: Db): (repo: string, since: string) => MonthSpend {
  const stmt = db.prepare<[string, string], { cost: number | null; runs: number; verified: number | null }>(
    "SELECT SUM(cost_usd) AS cost, COUNT(*) AS runs, SUM(verdict = 'verified') AS verified FROM runs WHERE repo = ? AND created_at >= ?",
  );
  return (repo, since) => {
    const r = stmt.get(repo, since);
    return { costUsd: r?.cost ?? 0, runs: r?.runs ?? 0, verified: r?.verified ?? 0 };
  };
}
