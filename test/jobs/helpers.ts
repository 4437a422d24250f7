/** The embedded SQLite database of the jobs tests, fresh for each test. */
import { afterEach, beforeEach } from '@jest/globals';
import { openDatabase, type Db } from '../../src/jobs/db.js';
import { tempDir } from '../kit/temp.js';

export interface TestDatabase {
  /** The open database of the running test. */
  readonly db: Db;
  /** Closes the database (as a process that dies would leave it) and opens it again from its home. */
  reopen(): Db;
}

/** For the calling describe (or file): a database in a new temp home before each test, closed after it. */
export function useDatabase(prefix: string): TestDatabase {
  let home = '';
  let db: Db | undefined;
  beforeEach(() => {
    home = tempDir(prefix);
    db = openDatabase(home);
  });
  afterEach(() => {
    try {
      db?.close();
    } catch {
      /* already closed */
    }
    db = undefined;
  });
  const open = (): Db => {
    if (!db) throw new Error('useDatabase: the database is opened before each test');
    return db;
  };
  return {
    get db() {
      return open();
    },
    reopen() {
      open().close();
      db = openDatabase(home);
      return db;
    },
  };
}
