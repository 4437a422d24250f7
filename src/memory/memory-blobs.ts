/**
 * The backends a MemoryStore keeps its JSON in. The App keeps memory in its own state, next to the runs
 * and the branch ledger it already has (the SQLite database, or Redis when REDIS_URL is set), so every
 * worker sees the same memory and nothing is pushed to the repository (proofpr pushes only its own
 * proofpr/* work branches, CONTRACT §1). The CLI and the Action keep a file under $PROOFPR_HOME/memory/.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type BetterSqlite3 from 'better-sqlite3';
import type { MemoryBlobs } from './types.js';

export function sqliteMemoryBlobs(db: BetterSqlite3.Database, now: () => Date = () => new Date()): MemoryBlobs {
  db.exec('CREATE TABLE IF NOT EXISTS memory (repo TEXT PRIMARY KEY, entries TEXT NOT NULL, updated_at TEXT NOT NULL)');
  const get = db.prepare<[string], { entries: string }>('SELECT entries FROM memory WHERE repo = ?');
  const put = db.prepare(
    'INSERT INTO memory (repo, entries, updated_at) VALUES (?, ?, ?) ON CONFLICT(repo) DO UPDATE SET entries = excluded.entries, updated_at = excluded.updated_at',
  );
  return {
    read: (repo) => get.get(repo)?.entries,
    write: (repo, json) => void put.run(repo, json, now().toISOString()),
  };
}

/** Kept without expiry, like the branch ledger: a lesson does not go stale by the clock. */
export function redisMemoryBlobs(redis: Redis, prefix = 'proofpr:memory:'): MemoryBlobs {
  return {
    read: async (repo) => (await redis.get(`${prefix}${repo}`)) ?? undefined,
    write: async (repo, json) => void (await redis.set(`${prefix}${repo}`, json)),
  };
}

/** `$PROOFPR_HOME/memory/<owner>+<name>.json`, written atomically. */
export function fileMemoryBlobs(home: string): MemoryBlobs {
  const dir = join(home, 'memory');
  const file = (repo: string) => join(dir, `${repo.replace(/[^a-z0-9._-]+/gi, '+')}.json`);
  return {
    async read(repo) {
      try {
        return await readFile(file(repo), 'utf8');
      } catch {
        return undefined;
      }
    },
    async write(repo, json) {
      await mkdir(dir, { recursive: true });
      const tmp = `${file(repo)}.${process.pid}.tmp`;
      await writeFile(tmp, json);
      await rename(tmp, file(repo));
    },
  };
}
