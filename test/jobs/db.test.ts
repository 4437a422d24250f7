import { describe, expect, it } from '@jest/globals';
import { loadBetterSqlite3, nodeSqliteNote, SqliteUnavailableError } from '../../src/jobs/db.js';

const missing = (): never => {
  throw Object.assign(new Error("Cannot find module 'better-sqlite3'"), { code: 'MODULE_NOT_FOUND' });
};

describe('embedded database - better-sqlite3 missing', () => {
  it('db - a missing better-sqlite3 is an error naming both fixes, and what this Node has of node:sqlite', () => {
    let err: unknown;
    try {
      loadBetterSqlite3(missing);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SqliteUnavailableError);
    const msg = (err as Error).message;
    expect(msg).toContain('(not installed)');
    expect(msg).toContain('npm install better-sqlite3@12');
    expect(msg).toContain('set REDIS_URL');
    expect(msg).toContain(process.version);
    expect(msg).toContain('node:sqlite');
  });

  it('db - node:sqlite is feature-detected: on Node < 22.5 the note names the version it needs; where it exists, it says proofpr does not use it', () => {
    expect(nodeSqliteNote(() => false, 'v20.20.2')).toBe(
      "Node's own node:sqlite is no way around it either (it needs Node >= 22.5, this is v20.20.2, and proofpr does not use it)",
    );
    expect(nodeSqliteNote((id) => id === 'node:sqlite', 'v22.12.0')).toBe(
      'this Node (v22.12.0) has node:sqlite, but proofpr does not use it as a fallback',
    );
  });
});
