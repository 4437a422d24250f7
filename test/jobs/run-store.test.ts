import { describe, it, expect } from '@jest/globals';
import { createRunStore } from '../../src/jobs/run-store.js';
import { useDatabase } from './helpers.js';

describe('run store - runs, deliveries, leases', () => {
  const sqlite = useDatabase('proofpr-store-');

  it('run store - a delivery id is accepted once', () => {
    const s = createRunStore(sqlite.db);
    expect(s.recordDelivery('d-1')).toBe(true);
    expect(s.recordDelivery('d-1')).toBe(false);
    expect(s.recordDelivery('d-2')).toBe(true);
  });

  it('run store - the branch ledger knows which branches proofpr created, per repository', () => {
    const s = createRunStore(sqlite.db);
    expect(s.ownsBranch('Acme/Widgets', 'proofpr/7-x')).toBe(false);
    s.recordBranch('Acme/Widgets', 'proofpr/7-x', 'r1');
    s.recordBranch('acme/widgets', 'proofpr/7-x', 'r2');
    expect(s.ownsBranch('acme/widgets', 'proofpr/7-x')).toBe(true);
    expect(s.ownsBranch('acme/other', 'proofpr/7-x')).toBe(false);
    expect(s.ownsBranch('acme/widgets', 'proofpr/8-y')).toBe(false);
  });

  it('run store - one active run per issue; the lease frees when the run is done', () => {
    const s = createRunStore(sqlite.db);
    const a = s.tryCreate({ id: 'r1', repo: 'o/r', issue: 1, kind: 'fix' });
    expect(a.ok).toBe(true);
    s.setComment('r1', 77, 'https://x/c/77');
    const b = s.tryCreate({ id: 'r2', repo: 'o/r', issue: 1, kind: 'fix' });
    expect(b).toMatchObject({ ok: false, active: { id: 'r1', status: 'queued', commentId: 77, commentUrl: 'https://x/c/77' } });
    expect(s.tryCreate({ id: 'r3', repo: 'o/r', issue: 2, kind: 'fix' }).ok).toBe(true);
    s.update('r1', { status: 'running' });
    expect(s.active('o/r', 1)?.status).toBe('running');
    s.update('r1', { status: 'done', verdict: 'verified', prUrl: 'https://x/pull/5' });
    expect(s.active('o/r', 1)).toBeUndefined();
    expect(s.get('r1')).toMatchObject({ status: 'done', verdict: 'verified', prUrl: 'https://x/pull/5' });
    expect(s.tryCreate({ id: 'r4', repo: 'o/r', issue: 1, kind: 'fix' }).ok).toBe(true);
    expect(s.latest('o/r', 1)?.id).toBe('r4');
  });

  it('run store - state survives reopening the database', () => {
    createRunStore(sqlite.db).tryCreate({ id: 'r1', repo: 'o/r', issue: 1, kind: 'fix' });
    sqlite.reopen();
    expect(createRunStore(sqlite.db).active('o/r', 1)?.id).toBe('r1');
  });
});
