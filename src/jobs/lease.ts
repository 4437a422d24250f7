/**
 * Leases in Redis that every worker sees.
 * - Issue lease: one key per issue, `SET NX PX` with an owner string, renewed while the run works, released
 *   at the end. An owner that starts with the same run id may take it over: BullMQ hands a job to a new
 *   worker only after the old one lost the job's lock (killed or stalled), so the new attempt of the same
 *   run is the rightful holder, and the old one learns it lost the lease at its next renewal.
 * - Repository slots: a sorted set of holders scored by expiry (Redis server time), at most `limit` live.
 * Everything is one Lua script per step (ioredis `eval`; Redis caches the compiled script), so two workers
 * never both win.
 */
import type { Redis } from 'ioredis';

const ACQUIRE = `
local cur = redis.call('GET', KEYS[1])
if (not cur) or cur == ARGV[1] or (ARGV[3] ~= '' and string.sub(cur, 1, string.len(ARGV[3])) == ARGV[3]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  if not cur then return {1, ''} end
  return {1, cur}
end
return {0, cur}`;

const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

const SLOT_ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0`;

export type LeaseResult = { ok: true; previousOwner?: string } | { ok: false; holder: string };

/** Take `key` for `owner` for `ttlMs`; `takeOverPrefix` lets an owner starting with it be replaced (a dead earlier attempt). */
export async function acquireLease(redis: Redis, key: string, owner: string, ttlMs: number, takeOverPrefix = ''): Promise<LeaseResult> {
  const r = (await redis.eval(ACQUIRE, 1, key, owner, Math.ceil(ttlMs), takeOverPrefix)) as [number, string];
  if (r[0] === 1) return r[1] && r[1] !== owner ? { ok: true, previousOwner: r[1] } : { ok: true };
  return { ok: false, holder: r[1] };
}

/** Extend a lease still held by `owner`; false when it expired or someone took it over. */
export async function renewLease(redis: Redis, key: string, owner: string, ttlMs: number): Promise<boolean> {
  return (await redis.eval(RENEW, 1, key, owner, Math.ceil(ttlMs))) === 1;
}

export async function releaseLease(redis: Redis, key: string, owner: string): Promise<boolean> {
  return (await redis.eval(RELEASE, 1, key, owner)) === 1;
}

/** One of `limit` slots of `key` for `holder` (re-acquiring renews); false when all are held by live holders. */
export async function acquireSlot(redis: Redis, key: string, holder: string, limit: number, ttlMs: number): Promise<boolean> {
  return (await redis.eval(SLOT_ACQUIRE, 1, key, holder, Math.ceil(ttlMs), limit)) === 1;
}

export async function releaseSlot(redis: Redis, key: string, holder: string): Promise<void> {
  await redis.zrem(key, holder);
}
