/**
 * A small Redis client on node:net (RESP2): one socket, replies matched to commands in order, reconnect with
 * backoff after a drop, optional offline queue, pub/sub. Status words follow ioredis ('wait', 'connecting',
 * 'connect', 'ready', 'reconnecting', 'end') because BullMQ's connection code reads them.
 *
 * Why our own: BullMQ 6 takes any client behind its `IRedisClient` interface and ioredis is not a dependency
 * of this project; the subset BullMQ and proofpr need is small.
 */
import { EventEmitter } from 'node:events';
import { createConnection, type Socket } from 'node:net';
import { encodeCommand, ReplyError, RespDecoder, type CommandArg, type RespValue } from './resp.js';
import { logger } from '../../log.js';

const log = logger('redis');

/** Same text as BullMQ's and ioredis's, so BullMQ treats it as a connection error and retries. */
export const CONNECTION_CLOSED = 'Connection is closed.';

/** A command refused without being sent: Redis is down and this client does not queue offline. */
export class RedisUnavailableError extends Error {
  override name = 'RedisUnavailableError';
}

export interface RedisClientOptions {
  /** redis://[user:password@]host:port[/db] */
  url: string;
  connectionName?: string;
  /** Queue commands while disconnected and send them on reconnect (default true). false: reject at once. */
  enableOfflineQueue?: boolean;
  /** Give up on one connect attempt after this long (default 2000 ms). */
  connectTimeoutMs?: number;
  /** Reject a command not answered within this time (default: none; never set it on a blocking client). */
  commandTimeoutMs?: number;
  /** Delay before reconnect attempt `n` (1-based); null stops reconnecting. Default: min(100·n, 2000) ms, forever. */
  retryDelay?: (attempt: number) => number | null;
}

interface Pending {
  resolve(v: RespValue): void;
  reject(e: Error): void;
}

interface Target {
  host: string;
  port: number;
  username?: string;
  password?: string;
  db?: number;
}

export function parseRedisUrl(url: string): Target {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`REDIS_URL is not a URL (${JSON.stringify(url.replace(/\/\/[^@]*@/, '//***@'))}): use redis://host:6379`);
  }
  if (u.protocol !== 'redis:') throw new Error(`REDIS_URL must start with redis:// (got ${u.protocol}//); TLS (rediss://) is not supported`);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined;
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(db !== undefined && Number.isInteger(db) ? { db } : {}),
  };
}

export class RedisClient extends EventEmitter {
  status = 'wait';
  readonly options: RedisClientOptions;
  protected readonly target: Target;
  private socket: Socket | undefined;
  private readonly decoder = new RespDecoder();
  private pending: Pending[] = [];
  private offline: { args: CommandArg[]; p: Pending }[] = [];
  private attempts = 0;
  private manualClose = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private lastError: Error | undefined;
  private readonly channels = new Set<string>();

  constructor(options: RedisClientOptions, { lazy = false }: { lazy?: boolean } = {}) {
    super();
    this.options = options;
    this.target = parseRedisUrl(options.url);
    if (!lazy) this.open();
  }

  /** Send a command; resolves with the reply, rejects with the server's error or a connection error. */
  call(...args: CommandArg[]): Promise<RespValue> {
    const p = new Promise<RespValue>((resolve, reject) => {
      const entry = { resolve, reject };
      if (this.status === 'ready') this.write(args, entry);
      else if (this.status === 'end') reject(new Error(CONNECTION_CLOSED));
      else if (this.options.enableOfflineQueue === false) {
        reject(new RedisUnavailableError(`Redis at ${this.target.host}:${this.target.port} is not reachable (${this.status}${this.lastError ? `: ${this.lastError.message}` : ''}); the command was not sent`));
      } else this.offline.push({ args, p: entry });
    });
    const ms = this.options.commandTimeoutMs;
    if (!ms) return p;
    return new Promise<RespValue>((resolve, reject) => {
      const t = setTimeout(() => reject(new RedisUnavailableError(`Redis did not answer within ${ms} ms`)), ms);
      p.then(resolve, reject).finally(() => clearTimeout(t));
    });
  }

  /** Subscribe this client (it then serves pub/sub only); `message` events carry (channel, text). Re-subscribed after reconnects. */
  async subscribe(channel: string): Promise<void> {
    this.channels.add(channel);
    if (this.status === 'ready') await this.call('SUBSCRIBE', channel);
  }

  /** Resolves once the connection is ready; rejects after `timeoutMs` (or when the client ended). */
  whenReady(timeoutMs: number): Promise<void> {
    if (this.status === 'ready') return Promise.resolve();
    if (this.status === 'end') return Promise.reject(new Error(CONNECTION_CLOSED));
    return new Promise((resolve, reject) => {
      const done = (e?: Error): void => {
        clearTimeout(t);
        this.off('ready', onReady);
        this.off('end', onEnd);
        if (e) reject(e);
        else resolve();
      };
      const onReady = (): void => done();
      const onEnd = (): void => done(new Error(CONNECTION_CLOSED));
      const t = setTimeout(
        () => done(new RedisUnavailableError(`Redis at ${this.target.host}:${this.target.port} is not reachable after ${timeoutMs} ms (${this.status}${this.lastError ? `: ${this.lastError.message}` : ''})`)),
        timeoutMs,
      );
      this.on('ready', onReady);
      this.on('end', onEnd);
    });
  }

  connect(): Promise<void> {
    if (this.status === 'ready') return Promise.resolve();
    if (this.status === 'wait' || this.status === 'end') {
      this.manualClose = false;
      this.attempts = 0;
      this.open();
    }
    return new Promise((resolve, reject) => {
      const onReady = (): void => {
        this.off('end', onEnd);
        resolve();
      };
      const onEnd = (): void => {
        this.off('ready', onReady);
        reject(this.lastError ?? new Error(CONNECTION_CLOSED));
      };
      this.once('ready', onReady);
      this.once('end', onEnd);
    });
  }

  /** Close now (pending commands fail); with `reconnect`, drop the socket and connect again. */
  disconnect(reconnect = false): void {
    if (reconnect) {
      this.socket?.destroy();
      return;
    }
    this.manualClose = true;
    clearTimeout(this.reconnectTimer);
    const sock = this.socket;
    if (sock && !sock.destroyed) {
      this.status = 'end';
      sock.destroy();
    } else if (this.status !== 'end') {
      this.status = 'end';
      this.failAll(this.offline.map((o) => o.p));
      this.offline = [];
      this.emit('close');
      this.emit('end');
    }
  }

  async quit(): Promise<string> {
    if (this.status === 'ready') {
      this.manualClose = true;
      const closed = new Promise<void>((ok) => this.once('end', ok));
      await this.call('QUIT').catch(() => undefined);
      this.socket?.end();
      await closed;
    } else this.disconnect();
    return 'OK';
  }

  protected emitError(e: Error): void {
    if (this.listenerCount('error') > 0) this.emit('error', e);
    else log.debug({ err: e.message }, 'redis connection error');
  }

  private write(args: CommandArg[], p: Pending): void {
    this.pending.push(p);
    this.socket?.write(encodeCommand(args));
  }

  private open(): void {
    this.status = this.attempts === 0 ? 'connecting' : 'reconnecting';
    const sock = createConnection({ host: this.target.host, port: this.target.port });
    this.socket = sock;
    sock.setNoDelay(true);
    sock.setKeepAlive(true, 10_000);
    const timer = setTimeout(() => sock.destroy(new Error(`connect to ${this.target.host}:${this.target.port} timed out`)), this.options.connectTimeoutMs ?? 2000);
    sock.once('connect', () => {
      clearTimeout(timer);
      this.status = 'connect';
      void this.handshake(sock);
    });
    sock.on('data', (chunk) => this.onData(chunk));
    sock.on('error', (e) => {
      this.lastError = e;
      this.emitError(e);
    });
    sock.on('close', () => {
      clearTimeout(timer);
      this.onClose(sock);
    });
  }

  private async handshake(sock: Socket): Promise<void> {
    const send = (...args: CommandArg[]): Promise<RespValue> => new Promise((resolve, reject) => this.write(args, { resolve, reject }));
    try {
      const t = this.target;
      if (t.password !== undefined) await send('AUTH', ...(t.username ? [t.username] : []), t.password);
      if (t.db !== undefined) await send('SELECT', t.db);
      if (this.options.connectionName) await send('CLIENT', 'SETNAME', this.options.connectionName);
      for (const ch of this.channels) await send('SUBSCRIBE', ch);
    } catch (e) {
      this.lastError = e as Error;
      this.emitError(e as Error);
      sock.destroy();
      return;
    }
    if (sock !== this.socket || sock.destroyed) return;
    this.status = 'ready';
    this.attempts = 0;
    this.lastError = undefined;
    const queued = this.offline;
    this.offline = [];
    for (const q of queued) this.write(q.args, q.p);
    this.emit('ready');
  }

  private onData(chunk: Buffer): void {
    let replies: RespValue[];
    try {
      replies = this.decoder.push(chunk);
    } catch (e) {
      this.emitError(e as Error);
      this.socket?.destroy();
      return;
    }
    for (const r of replies) {
      if (this.channels.size > 0 && Array.isArray(r) && r[0] === 'message' && r.length === 3) {
        this.emit('message', String(r[1]), String(r[2]));
        continue;
      }
      const p = this.pending.shift();
      if (!p) continue;
      if (r instanceof ReplyError) p.reject(r);
      else p.resolve(r);
    }
  }

  private failAll(list: Pending[]): void {
    for (const p of list) p.reject(new Error(CONNECTION_CLOSED));
  }

  private onClose(sock: Socket): void {
    if (sock !== this.socket) return;
    this.socket = undefined;
    const inflight = this.pending;
    this.pending = [];
    this.decoder.reset();
    this.failAll(inflight);
    const wasOpen = this.status === 'ready';
    if (this.manualClose || this.status === 'end') {
      this.status = 'end';
      this.failAll(this.offline.map((o) => o.p));
      this.offline = [];
      this.emit('close');
      this.emit('end');
      return;
    }
    this.attempts += 1;
    const delay = (this.options.retryDelay ?? ((n: number) => Math.min(100 * n, 2000)))(this.attempts);
    if (wasOpen) log.warn({ host: this.target.host, port: this.target.port }, 'redis connection lost; reconnecting');
    this.emit('close');
    if (delay === null) {
      this.status = 'end';
      this.failAll(this.offline.map((o) => o.p));
      this.offline = [];
      this.emit('end');
      return;
    }
    this.status = 'reconnecting';
    this.emit('reconnecting', delay);
    this.reconnectTimer = setTimeout(() => this.open(), delay);
  }
}
