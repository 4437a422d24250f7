/** The installation budget's spend in the SQLite run store: this month's runs of every repository of one owner. */
import { describe, expect, it } from '@jest/globals';
import { createRunStore, type RunStore } from '../../src/jobs/run-store.js';
import { useDatabase } from './helpers.js';

const sqlite = useDatabase('proofpr-owner-spend-');

function done(s: RunStore, id: string, repo: string, verdict: string, costUsd?: number): void {
  s.tryCreate({ id, repo, issue: 1, kind: 'fix' });
  s.update(id, { status: 'done', verdict, ...(costUsd !== undefined ? { costUsd } : {}) });
}

describe('run store - owner spend', () => {
  it("owner spend - sums this month's runs of every repository of the owner, whatever the case of the login", () => {
    const s = createRunStore(sqlite.db, () => new Date('2026-12-02T08:00:00Z'));
    done(s, 'a', 'acme/widgets', 'verified', 1.5);
    done(s, 'b', 'acme/gadgets', 'unverified', 2.25);
    done(s, 'c', 'Acme/Legacy', 'verified', 0.25);
    done(s, 'd', 'acme/free', 'error');
    expect(s.ownerSpendSince('acme', '2026-12-01T00:00:00.000Z')).toEqual({ costUsd: 4, runs: 4, verified: 2 });
    expect(s.ownerSpendSince('ACME', '2026-12-01T00:00:00.000Z').costUsd).toBe(4);
    expect(s.spendSince('acme/widgets', '2026-12-01T00:00:00.000Z')).toEqual({ costUsd: 1.5, runs: 1, verified: 1 });
  });

  it('owner spend - another owner whose login starts alike, or one with a wildcard-looking name, is not counted', () => {
    const s = createRunStore(sqlite.db, () => new Date('2026-12-02T08:00:00Z'));
    done(s, 'a', 'acme/widgets', 'verified', 1);
    done(s, 'b', 'acme-labs/widgets', 'verified', 50);
    done(s, 'c', 'acm/e', 'verified', 50);
    done(s, 'd', 'a_me/widgets', 'verified', 50);
    expect(s.ownerSpendSince('acme', '2026-12-01T00:00:00.000Z')).toEqual({ costUsd: 1, runs: 1, verified: 1 });
    expect(s.ownerSpendSince('a_me', '2026-12-01T00:00:00.000Z').costUsd).toBe(50);
    expect(s.ownerSpendSince('nobody', '2026-12-01T00:00:00.000Z')).toEqual({ costUsd: 0, runs: 0, verified: 0 });
  });

  it("owner spend - last month's runs are not this month's", () => {
    let now = new Date('2026-11-30T23:59:00Z');
    const s = createRunStore(sqlite.db, () => now);
    done(s, 'old', 'acme/widgets', 'verified', 9);
    now = new Date('2026-12-01T00:01:00Z');
    done(s, 'new', 'acme/gadgets', 'verified', 1);
    expect(s.ownerSpendSince('acme', '2026-12-01T00:00:00.000Z')).toEqual({ costUsd: 1, runs: 1, verified: 1 });
  });
});
