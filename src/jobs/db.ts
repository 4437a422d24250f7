/**
 * The embedded state database: $PROOFPR_HOME/proofpr.db (better-sqlite3, WAL), shared by the run store and
 * the queue. better-sqlite3 is an optional dependency (a native module): it is loaded here, on first use,
 * so `demo`, `run`, `sweep`, `worker` and the Action never need a native build.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { join } from 'node:path';

export type Db = BetterSqlite3.Database;

/**
 * Node's own `node:sqlite` (Node >= 22.5) is not a fallback: the state code is written against
 * better-sqlite3 (transactions, pragmas, statement API) and has not been run on node:sqlite, so proofpr
 * does not use it. The error says which case this Node is in, so nobody looks for a fallback that is not there.
 */
export function nodeSqliteNote(builtin: (id: string) => boolean = isBuiltin, version: string = process.version): string {
  return builtin('node:sqlite')
    ? `this Node (${version}) has node:sqlite, but proofpr does not use it as a fallback`
    : `Node's own node:sqlite is no way around it either (it needs Node >= 22.5, this is ${version}, and proofpr does not use it)`;
}

/** better-sqlite3 is not installed (or its native binary does not load); the message names the fix. */
export class SqliteUnavailableError extends Error {
  constructor(cause: string) {
    super(
      'the embedded queue of `proofpr serve` needs better-sqlite3, an optional dependency that is not usable here ' +
        `(${cause}): install it next to proofpr with \`npm install better-sqlite3@12\` (it downloads a prebuilt binary, ` +
        'or builds one with python3, make and a C++ compiler), or set REDIS_URL to keep the queue and run records in Redis; ' +
        nodeSqliteNote(),
    );
    this.name = 'SqliteUnavailableError';
  }
}

type Load = (id: string) => unknown;

/** The better-sqlite3 constructor, loaded on demand (`load` is injectable for tests). */
export function loadBetterSqlite3(load: Load = createRequire(import.meta.url)): typeof BetterSqlite3 {
  try {
    return load('better-sqlite3') as typeof BetterSqlite3;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new SqliteUnavailableError(err.code === 'MODULE_NOT_FOUND' ? 'not installed' : (err.message.split('\n')[0] ?? 'does not load'));
  }
}

export function openDatabase(home: string, load?: Load): Db {
  const Database = loadBetterSqlite3(load);
  mkdirSync(home, { recursive: true });
  let db: Db;
  try {
    db = new Database(join(home, 'proofpr.db'));
  } catch (e) {
    // The JS wrapper loads without its native binary; the binding is only bound on the first open.
    if (/bindings|\.node\b|NODE_MODULE_VERSION/i.test((e as Error).message))
      throw new SqliteUnavailableError((e as Error).message.split('\n')[0] ?? 'does not load');
    throw e;
  }
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  return db;
}
