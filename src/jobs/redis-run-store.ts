/**
 * Run records, webhook deliveries, the one-active-run-per-issue rule and the publish guard in Redis, so the
 * webhook server and every worker (on any machine) see the same state. Per-process SQLite cannot do this:
 * each machine would have its own file, and a shared SQLite file over a network filesystem has unreliable
 * locking. Redis is already required for BullMQ, so it holds these too (hashes with a TTL, default 30 days).
 *
 * Same operations as the SQLite `RunStore`, but every method returns a Promise.
 */
import { runRecordOf, type Promised, type RunRecord, type SharedRunStore } from './run-store.js';
import type { MonthSpend, RunStatus } from '../usecases/ports.js';
import type { Redis } from 'ioredis';
import { logger } from '../log.js';

const log = logger('redis-run-store');

export interface RedisRunStore extends Promised<Omit<SharedRunStore, 'forgetDelivery' | 'spendSince' | 'ownerSpendSince' | 'update'>> {
  update(id: string, patch: { status?: RunStatus; verdict?: string; prUrl?: string; commentId?: number; costUsd?: number }): Promise<void>;
  /**
   * This month's spend on `repo` (`since`: the month's first instant, as budget.monthly_usd asks): each run's
   * cost, counted once when it is done, in a per-repository, per-month hash every worker adds to.
   */
  spendSince(repo: string, since: string): Promise<MonthSpend>;
  /** The same for every repository of `owner` (the installation budget's): an owner-level hash added to with the repository's. */
  ownerSpendSince(owner: string, since: string): Promise<MonthSpend>;
  /**
   * The publish guard: true for exactly one caller per run id (the one that must open the PR). Others get
   * false and can read `published(runId)`. Call `markPublished` with the PR URL once it exists.
   */
  claimPublish(runId: string, owner: string): Promise<boolean>;
  markPublished(runId: string, url: string): Promise<void>;
  published(runId: string): Promise<string | undefined>;
}

// KEYS: run hash, active key, latest key. ARGV: id, repo, issue, kind, ts, ttl seconds.
const TRY_CREATE = `
local cur = redis.call('GET', KEYS[2])
if cur and redis.call('EXISTS', KEYS[4] .. cur) == 1 then return {0, cur} end
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'repo', ARGV[2], 'issue', ARGV[3], 'kind', ARGV[4], 'status', 'queued', 'createdAt', ARGV[5], 'updatedAt', ARGV[5])
redis.call('EXPIRE', KEYS[1], ARGV[6])
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[6])
redis.call('SET', KEYS[3], ARGV[1], 'EX', ARGV[6])
return {1, ARGV[1]}`;

// KEYS: run hash, active-key prefix. ARGV: ts, then field/value pairs.
const UPDATE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'updatedAt', ARGV[1], unpack(ARGV, 2))
local h = redis.call('HMGET', KEYS[1], 'status', 'repo', 'issue', 'id')
if h[1] == 'done' then
  local active = KEYS[2] .. h[2] .. '#' .. h[3]
  if redis.call('GET', active) == h[4] then redis.call('DEL', active) end
end
return 1`;

function toRecord(h: Record<string, string>): RunRecord | undefined {
  return h.id && h.repo && h.issue ? runRecordOf(h) : undefined;
}

/**
 * Spend across runs: a done run's cost, verdict and count are added to its month (the month it was created),
 * once per run, in a per-repository hash and its owner's hash (the installation's account), both in one
 * MULTI so they never disagree; every worker adds to them; kept a little over a year.
 */
function redisSpend(redis: Redis, p: string, runKey: (id: string) => string) {
  const spendKey = (repo: string, month: string): string => `${p}spend:${repo.toLowerCase()}:${month}`;
  const ownerKey = (owner: string, month: string): string => `${p}owner-spend:${owner.toLowerCase()}:${month}`;
  const read = async (key: string): Promise<MonthSpend> => {
    const h = await redis.hgetall(key);
    return { costUsd: Number(h.cost ?? 0), runs: Number(h.runs ?? 0), verified: Number(h.verified ?? 0) };
  };
  return {
    async count(id: string): Promise<void> {
      if ((await redis.hsetnx(runKey(id), 'spendCounted', '1')) !== 1) return;
      const h = await redis.hgetall(runKey(id));
      if (!h.repo || !h.createdAt) return;
      const month = h.createdAt.slice(0, 7);
      const cost = Number(h.costUsd ?? 0) || 0;
      const verified = h.verdict === 'verified' ? 1 : 0;
      const tx = redis.multi();
      for (const key of [spendKey(h.repo, month), ownerKey(h.repo.split('/')[0] ?? h.repo, month)])
        tx.hincrbyfloat(key, 'cost', cost)
          .hincrby(key, 'runs', 1)
          .hincrby(key, 'verified', verified)
          .expire(key, 400 * 24 * 3600);
      await tx.exec();
    },
    since: (repo: string, since: string): Promise<MonthSpend> => read(spendKey(repo, since.slice(0, 7))),
    ownerSince: (owner: string, since: string): Promise<MonthSpend> => read(ownerKey(owner, since.slice(0, 7))),
  };
}

export function createRedisRunStore(redis: Redis, opts: { prefix?: string; ttlSeconds?: number; now?: () => Date } = {}): RedisRunStore {
  const p = `${opts.prefix ?? 'proofpr'}:`;
  const ttl = opts.ttlSeconds ?? 30 * 24 * 3600;
  const now = opts.now ?? (() => new Date());
  const runKey = (id: string): string => `${p}run:${id}`;
  const activeKey = (repo: string, issue: number): string => `${p}active:${repo}#${issue}`;
  const latestKey = (repo: string, issue: number): string => `${p}latest:${repo}#${issue}`;
  const get = async (id: string): Promise<RunRecord | undefined> => toRecord(await redis.hgetall(runKey(id)));
  const spend = redisSpend(redis, p, runKey);
  const update: RedisRunStore['update'] = async (id, patch) => {
    const pairs = Object.entries(patch)
      .filter(([, v]) => v !== undefined)
      .flatMap(([k, v]) => [k, String(v)]);
    await redis.eval(UPDATE, 2, runKey(id), `${p}active:`, now().toISOString(), ...pairs);
    if (patch.status === 'done') await spend.count(id);
  };
  return {
    async recordDelivery(id) {
      return (await redis.set(`${p}delivery:${id}`, '1', 'EX', 7 * 24 * 3600, 'NX')) !== null;
    },
    async tryCreate(run) {
      const r = (await redis.eval(
        TRY_CREATE,
        4,
        runKey(run.id),
        activeKey(run.repo, run.issue),
        latestKey(run.repo, run.issue),
        `${p}run:`,
        run.id,
        run.repo,
        run.issue,
        run.kind,
        now().toISOString(),
        ttl,
      )) as [number, string];
      if (r[0] === 1) return { ok: true, run: (await get(run.id)) as RunRecord };
      const active = await get(r[1]);
      if (active && active.status !== 'done') return { ok: false, active };
      // The active pointer outlived its run: clear it and try once more.
      await redis.del(activeKey(run.repo, run.issue));
      return this.tryCreate(run);
    },
    get,
    async active(repo, issue) {
      const id = await redis.get(activeKey(repo, issue));
      const run = id ? await get(id) : undefined;
      return run && run.status !== 'done' ? run : undefined;
    },
    async latest(repo, issue) {
      const id = await redis.get(latestKey(repo, issue));
      return id ? get(id) : undefined;
    },
    async setComment(id, commentId, commentUrl) {
      await redis.hset(runKey(id), { commentId, commentUrl, updatedAt: now().toISOString() });
    },
    update: (id, patch) =>
      update(id, patch).catch((e: Error) => {
        log.error({ runId: id, err: e.message }, 'run update failed');
        throw e;
      }),
    spendSince: spend.since,
    ownerSpendSince: spend.ownerSince,
    async recordBranch(repo, branch, runId) {
      await redis.hsetnx(`${p}branches:${repo.toLowerCase()}`, branch, runId);
    },
    async ownsBranch(repo, branch) {
      return (await redis.hexists(`${p}branches:${repo.toLowerCase()}`, branch)) === 1;
    },
    async claimPublish(runId, owner) {
      return (await redis.set(`${p}published:${runId}`, `pending:${owner}`, 'EX', ttl, 'NX')) !== null;
    },
    async markPublished(runId, url) {
      await redis.set(`${p}published:${runId}`, `done:${url}`, 'EX', ttl);
    },
    async published(runId) {
      const v = await redis.get(`${p}published:${runId}`);
      return v?.startsWith('done:') ? v.slice(5) : undefined;
    },
  };
}
