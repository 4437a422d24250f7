/** The embedded state database: $PROOFPR_HOME/proofpr.db (better-sqlite3, WAL), shared by the run store and the queue. */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export type Db = Database.Database;

export function openDatabase(home: string): Db {
  mkdirSync(home, { recursive: true });
  const db = new Database(join(home, 'proofpr.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  return db;
}
