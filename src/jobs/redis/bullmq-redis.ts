/**
 * Our RedisClient behind BullMQ's `IRedisClient`: the commands BullMQ issues, its Lua scripts (EVALSHA with
 * an EVAL fallback after a Redis restart emptied the script cache), pipelines and MULTI transactions.
 * Pass an instance as `connection` to BullMQ's Queue and Worker; they duplicate it for blocking reads.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { IRedisClient, IRedisTransaction } from 'bullmq';
import { RedisClient, type RedisClientOptions } from './redis-client.js';
import { ReplyError, type CommandArg, type RespValue } from './resp.js';

interface Script {
  sha: string;
  lua: string;
  numberOfKeys: number;
}

type Convert = (v: RespValue) => unknown;
const asIs: Convert = (v) => v;

function toHash(v: RespValue): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(v)) for (let i = 0; i + 1 < v.length; i += 2) out[String(v[i])] = String(v[i + 1]);
  return out;
}

function scriptArgs(script: Script, args: unknown[]): CommandArg[] {
  const list = args.length === 1 && Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
  return [script.numberOfKeys, ...list.map((a) => (Buffer.isBuffer(a) ? a : a === undefined || a === null ? '' : String(a)))];
}

class Transaction implements IRedisTransaction {
  private readonly cmds: { args: CommandArg[]; convert: Convert }[] = [];
  constructor(
    private readonly client: BullRedis,
    private readonly atomic: boolean,
  ) {}
  private add(convert: Convert, ...args: CommandArg[]): this {
    this.cmds.push({ args, convert });
    return this;
  }
  hgetall(key: string): this {
    return this.add(toHash, 'HGETALL', key);
  }
  hset(key: string, data: Record<string, string | number>): this {
    return this.add(asIs, 'HSET', key, ...Object.entries(data).flat());
  }
  hscan(key: string, cursor: string | number, options?: { COUNT?: number }): this {
    return this.add(asIs, 'HSCAN', key, cursor, ...(options?.COUNT ? ['COUNT', options.COUNT] : []));
  }
  smembers(key: string): this {
    return this.add(asIs, 'SMEMBERS', key);
  }
  sscan(key: string, cursor: string | number, options?: { COUNT?: number }): this {
    return this.add(asIs, 'SSCAN', key, cursor, ...(options?.COUNT ? ['COUNT', options.COUNT] : []));
  }
  zrange(key: string, start: number, end: number): this {
    return this.add(asIs, 'ZRANGE', key, start, end);
  }
  lrange(key: string, start: number, end: number): this {
    return this.add(asIs, 'LRANGE', key, start, end);
  }
  llen(key: string): this {
    return this.add(asIs, 'LLEN', key);
  }
  del(...keys: string[]): this {
    return this.add(asIs, 'DEL', ...keys);
  }
  runCommand(name: string, args: unknown[]): this {
    const script = this.client.script(name);
    // EVAL, not EVALSHA: a transaction cannot fall back after NOSCRIPT, and Redis caches EVAL'd scripts anyway.
    return this.add(asIs, 'EVAL', script.lua, ...scriptArgs(script, args));
  }
  async exec(): Promise<[Error | null, unknown][] | null> {
    const c = this.client;
    if (!this.atomic) {
      const settled = await Promise.allSettled(this.cmds.map((cmd) => c.call(...cmd.args)));
      return settled.map((s, i) => (s.status === 'fulfilled' ? [null, this.cmds[i]!.convert(s.value)] : [s.reason as Error, null]));
    }
    // All of MULTI … EXEC is written in one tick, so no other command of this connection interleaves.
    const multi = c.call('MULTI');
    const queued = this.cmds.map((cmd) => c.call(...cmd.args).catch((e: Error) => e));
    const exec = c.call('EXEC');
    await multi;
    await Promise.all(queued);
    const res = await exec;
    if (res === null) return null;
    if (!Array.isArray(res)) throw new Error('EXEC returned no array');
    return res.map((v, i) => (v instanceof ReplyError ? [v, null] : [null, this.cmds[i]!.convert(v)]));
  }
}

export class BullRedis extends RedisClient implements IRedisClient {
  readonly isCluster = false;
  private readonly scripts = new Map<string, Script>();
  [command: string]: unknown;

  constructor(options: RedisClientOptions, init: { lazy?: boolean; scripts?: Map<string, Script> } = {}) {
    super(options, init);
    for (const [name, s] of init.scripts ?? []) this.register(name, s);
  }

  duplicate(overrides?: Partial<RedisClientOptions>): BullRedis {
    return new BullRedis({ ...this.options, ...(overrides ?? {}) }, { scripts: this.scripts });
  }

  script(name: string): Script {
    const s = this.scripts.get(name);
    if (!s) throw new Error(`BullMQ script ${name} was never defined on this connection`);
    return s;
  }

  private register(name: string, s: Script): void {
    this.scripts.set(name, s);
    // BullMQ checks `client[name]` to skip defining a script twice.
    this[name] = (...args: unknown[]) => this.runCommand(name, args);
  }

  defineCommand(name: string, def: { numberOfKeys: number; lua: string }): void {
    this.register(name, { sha: createHash('sha1').update(def.lua).digest('hex'), lua: def.lua, numberOfKeys: def.numberOfKeys });
  }

  async runCommand(name: string, args: unknown[]): Promise<unknown> {
    const s = this.script(name);
    const rest = scriptArgs(s, args);
    try {
      return await this.call('EVALSHA', s.sha, ...rest);
    } catch (e) {
      if (e instanceof ReplyError && e.message.startsWith('NOSCRIPT')) return this.call('EVAL', s.lua, ...rest);
      throw e;
    }
  }

  multi(): IRedisTransaction {
    return new Transaction(this, true);
  }
  pipeline(): IRedisTransaction {
    return new Transaction(this, false);
  }

  async hgetall(key: string): Promise<Record<string, string>> {
    return toHash(await this.call('HGETALL', key));
  }
  async hget(key: string, field: string): Promise<string | null> {
    return (await this.call('HGET', key, field)) as string | null;
  }
  async hmget(key: string, ...fields: string[]): Promise<(string | null)[]> {
    return (await this.call('HMGET', key, ...fields)) as (string | null)[];
  }
  async hset(key: string, data: Record<string, string | number>): Promise<number> {
    return (await this.call('HSET', key, ...Object.entries(data).flat())) as number;
  }
  async hdel(key: string, ...fields: string[]): Promise<number> {
    return (await this.call('HDEL', key, ...fields)) as number;
  }
  async hexists(key: string, field: string): Promise<number> {
    return (await this.call('HEXISTS', key, field)) as number;
  }
  async get(key: string): Promise<string | null> {
    return (await this.call('GET', key)) as string | null;
  }
  async set(key: string, value: string | number, options?: { PX?: number; EX?: number }): Promise<string | null> {
    const extra = options?.PX !== undefined ? ['PX', options.PX] : options?.EX !== undefined ? ['EX', options.EX] : [];
    return (await this.call('SET', key, value, ...extra)) as string | null;
  }
  async del(...keys: string[]): Promise<number> {
    return keys.length === 0 ? 0 : ((await this.call('DEL', ...keys)) as number);
  }
  async zrange(key: string, start: number, end: number, options?: { WITHSCORES?: boolean }): Promise<string[]> {
    return (await this.call('ZRANGE', key, start, end, ...(options?.WITHSCORES ? ['WITHSCORES'] : []))) as string[];
  }
  async zrevrange(key: string, start: number, end: number, options?: { WITHSCORES?: boolean }): Promise<string[]> {
    return (await this.call('ZREVRANGE', key, start, end, ...(options?.WITHSCORES ? ['WITHSCORES'] : []))) as string[];
  }
  async zcard(key: string): Promise<number> {
    return (await this.call('ZCARD', key)) as number;
  }
  async zscore(key: string, member: string): Promise<string | null> {
    return (await this.call('ZSCORE', key, member)) as string | null;
  }
  async lrange(key: string, start: number, end: number): Promise<string[]> {
    return (await this.call('LRANGE', key, start, end)) as string[];
  }
  async llen(key: string): Promise<number> {
    return (await this.call('LLEN', key)) as number;
  }
  async ltrim(key: string, start: number, end: number): Promise<string> {
    return (await this.call('LTRIM', key, start, end)) as string;
  }
  async lpos(key: string, value: string): Promise<number | null> {
    return (await this.call('LPOS', key, value)) as number | null;
  }
  async smembers(key: string): Promise<string[]> {
    return (await this.call('SMEMBERS', key)) as string[];
  }
  async xadd(key: string, id: string, fields: Record<string, string | number>, options?: { MAXLEN?: number; approximate?: boolean }): Promise<string> {
    const trim = options?.MAXLEN !== undefined ? ['MAXLEN', ...(options.approximate !== false ? ['~'] : []), options.MAXLEN] : [];
    return (await this.call('XADD', key, ...trim, id, ...Object.entries(fields).flat())) as string;
  }
  async xread(streams: { key: string; id: string }[], options?: { BLOCK?: number; COUNT?: number }): Promise<unknown> {
    const opts = [...(options?.COUNT !== undefined ? ['COUNT', options.COUNT] : []), ...(options?.BLOCK !== undefined ? ['BLOCK', options.BLOCK] : [])];
    return this.call('XREAD', ...opts, 'STREAMS', ...streams.map((s) => s.key), ...streams.map((s) => s.id));
  }
  async xtrim(key: string, strategy: 'MAXLEN', threshold: number, options?: { approximate?: boolean }): Promise<number> {
    return (await this.call('XTRIM', key, strategy, ...(options?.approximate ? ['~'] : []), threshold)) as number;
  }
  async bzpopmin(key: string, timeout: number): Promise<[key: string, member: string, score: string] | null> {
    return (await this.call('BZPOPMIN', key, timeout)) as [string, string, string] | null;
  }
  async info(): Promise<string> {
    return String(await this.call('INFO'));
  }
  clientSetName(name: string): Promise<unknown> {
    return this.call('CLIENT', 'SETNAME', name);
  }
  async clientList(): Promise<string> {
    return String(await this.call('CLIENT', 'LIST'));
  }
  async clientInfo(): Promise<string> {
    return String(await this.call('CLIENT', 'INFO'));
  }
  async scan(cursor: string | number, options: { MATCH?: string; COUNT?: number }): Promise<[string, string[]]> {
    const extra = [...(options.MATCH ? ['MATCH', options.MATCH] : []), ...(options.COUNT ? ['COUNT', options.COUNT] : [])];
    return (await this.call('SCAN', cursor, ...extra)) as [string, string[]];
  }
  scanStream(options: { match: string; count?: number }): Readable {
    const scan = (cursor: string): Promise<[string, string[]]> => this.scan(cursor, { MATCH: options.match, ...(options.count ? { COUNT: options.count } : {}) });
    return Readable.from(
      (async function* () {
        let cursor = '0';
        do {
          const [next, keys] = await scan(cursor);
          cursor = next;
          if (keys.length > 0) yield keys;
        } while (cursor !== '0');
      })(),
    );
  }
}
