/** The Redis run store, leases and the publish guard that every worker shares (real Redis). */
import { describe, it, expect } from '@jest/globals';
import { createRedisRunStore } from '../../src/jobs/redis-run-store.js';
import { acquireLease, acquireSlot, releaseLease, renewLease } from '../../src/jobs/lease.js';
import { uniquePrefix, useRedis } from '../scale/helpers.js';

const shared = useRedis();

describe('redis run store - shared runs, deliveries and the publish guard', () => {
  it('redis run store - a delivery id is recorded once; a redelivery returns false', async () => {
    const s = createRedisRunStore(shared.redis, { prefix: uniquePrefix('deliv') });
    expect(await s.recordDelivery('d-1')).toBe(true);
    expect(await s.recordDelivery('d-1')).toBe(false);
  });

  it('redis run store - one active run per issue until it is done, then the next one may start', async () => {
    const s = createRedisRunStore(shared.redis, { prefix: uniquePrefix('runs') });
    const a = await s.tryCreate({ id: 'r1', repo: 'o/r', issue: 3, kind: 'fix' });
    expect(a).toMatchObject({ ok: true, run: { id: 'r1', status: 'queued', issue: 3 } });
    const b = await s.tryCreate({ id: 'r2', repo: 'o/r', issue: 3, kind: 'fix' });
    expect(b).toMatchObject({ ok: false, active: { id: 'r1' } });
    await s.setComment('r1', 42, 'https://example.test/c/42');
    await s.update('r1', { status: 'done', verdict: 'verified', prUrl: 'https://example.test/pr/1' });
    expect(await s.active('o/r', 3)).toBeUndefined();
    expect(await s.get('r1')).toMatchObject({ status: 'done', verdict: 'verified', prUrl: 'https://example.test/pr/1', commentId: 42 });
    expect((await s.tryCreate({ id: 'r3', repo: 'o/r', issue: 3, kind: 'plan' })).ok).toBe(true);
    expect(await s.latest('o/r', 3)).toMatchObject({ id: 'r3', kind: 'plan' });
  });

  it('redis run store - the branch ledger knows which branches proofpr created, per repository', async () => {
    const s = createRedisRunStore(shared.redis, { prefix: uniquePrefix('branches') });
    expect(await s.ownsBranch('acme/widgets', 'proofpr/7-x')).toBe(false);
    await s.recordBranch('Acme/Widgets', 'proofpr/7-x', 'r1');
    expect(await s.ownsBranch('acme/widgets', 'proofpr/7-x')).toBe(true);
    expect(await s.ownsBranch('acme/other', 'proofpr/7-x')).toBe(false);
  });

  it('redis run store - the publish guard lets exactly one caller publish per run id', async () => {
    const s = createRedisRunStore(shared.redis, { prefix: uniquePrefix('pub') });
    const wins = await Promise.all([s.claimPublish('r1', 'a'), s.claimPublish('r1', 'b'), s.claimPublish('r1', 'c')]);
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect(await s.published('r1')).toBeUndefined();
    await s.markPublished('r1', 'https://example.test/pr/9');
    expect(await s.published('r1')).toBe('https://example.test/pr/9');
  });
});

describe('lease - issue leases and repository slots', () => {
  it('lease - a held lease refuses other owners, accepts a takeover by the same run, and renewal tells the loser', async () => {
    const key = `${uniquePrefix('lease')}:issue`;
    expect(await acquireLease(shared.redis, key, 'run1|w1', 5000, 'run1|')).toEqual({ ok: true });
    expect(await acquireLease(shared.redis, key, 'run2|w2', 5000, 'run2|')).toEqual({ ok: false, holder: 'run1|w1' });
    expect(await acquireLease(shared.redis, key, 'run1|w3', 5000, 'run1|')).toEqual({ ok: true, previousOwner: 'run1|w1' });
    expect(await renewLease(shared.redis, key, 'run1|w1', 5000)).toBe(false);
    expect(await renewLease(shared.redis, key, 'run1|w3', 5000)).toBe(true);
    expect(await releaseLease(shared.redis, key, 'run1|w1')).toBe(false);
    expect(await releaseLease(shared.redis, key, 'run1|w3')).toBe(true);
  });

  it('lease - a lease whose owner stopped renewing expires after its TTL', async () => {
    const key = `${uniquePrefix('ttl')}:issue`;
    expect((await acquireLease(shared.redis, key, 'a', 100)).ok).toBe(true);
    await new Promise((r) => setTimeout(r, 150));
    expect((await acquireLease(shared.redis, key, 'b', 100)).ok).toBe(true);
  });

  it('lease - repository slots admit at most `limit` live holders', async () => {
    const key = `${uniquePrefix('slots')}:repo`;
    expect(await acquireSlot(shared.redis, key, 'r1', 2, 5000)).toBe(true);
    expect(await acquireSlot(shared.redis, key, 'r2', 2, 5000)).toBe(true);
    expect(await acquireSlot(shared.redis, key, 'r3', 2, 5000)).toBe(false);
    expect(await acquireSlot(shared.redis, key, 'r1', 2, 5000)).toBe(true);
  });
});
