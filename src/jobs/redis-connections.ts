/**
 * The ioredis connections of a BullMQ queue (ioredis is BullMQ's supported client; every connection
 * reconnects with backoff after a drop and re-sends its Lua scripts after a Redis restart):
 * - `producer`: no offline queue and a command timeout, for enqueue/cancel/counts. With Redis down,
 *   `producerReady` rejects within `timeoutMs`, so the webhook handler answers 5xx and GitHub redelivers.
 * - `redis`: `maxRetriesPerRequest: null` with the offline queue on, for the BullMQ Worker (which duplicates
 *   it for its blocking reads), leases and run records: work in progress waits out a restart instead of failing.
 * - `subscriber()`: a dedicated connection for pub/sub (ioredis re-subscribes after a reconnect).
 */
import { Redis } from 'ioredis';

export interface RedisConnections {
  producer: Redis;
  redis: Redis;
  /** "host:port" of REDIS_URL, without credentials, for error messages. */
  where: string;
  /** Resolves once the producer is connected; rejects after `timeoutMs` naming `what` and the last error. */
  producerReady(what: string): Promise<void>;
  subscriber(): Redis;
  /** QUIT a connection that is up (pending replies arrive first), else drop it. */
  end(c: Redis): Promise<void>;
}

/** "host:port" of a redis:// or rediss:// URL; throws naming REDIS_URL otherwise. */
function redisTarget(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error('REDIS_URL is not a URL: use redis://host:6379 (or rediss://host:6380 for TLS)');
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    throw new Error(`REDIS_URL must start with redis:// or rediss:// (got ${u.protocol}//)`);
  return `${u.hostname || '127.0.0.1'}:${u.port || 6379}`;
}

export function createRedisConnections(url: string, opts: { name: string; timeoutMs: number }): RedisConnections {
  const where = redisTarget(url);
  const producer = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: opts.timeoutMs,
    maxRetriesPerRequest: 1,
    connectionName: `${opts.name}:producer`,
  });
  const redis = new Redis(url, { maxRetriesPerRequest: null, connectionName: `${opts.name}:shared` });
  let lastError = '';
  // Errors surface on the commands (and through BullMQ's own 'error' events); without a listener ioredis prints them.
  producer.on('error', (e: Error) => (lastError = e.message));
  redis.on('error', () => undefined);

  // One wait shared by every caller, so a burst of webhooks during an outage adds one listener, not hundreds.
  let waiting: Promise<void> | undefined;
  const producerReady = async (what: string): Promise<void> => {
    const down = (): Error =>
      new Error(`${what}: Redis at ${where} is not reachable (${producer.status}${lastError ? `: ${lastError}` : ''}); nothing was sent`);
    if (producer.status === 'ready') return;
    if (producer.status === 'end') throw down();
    waiting ??= new Promise<void>((resolve, reject) => {
      const ready = (): void => {
        clearTimeout(t);
        resolve();
      };
      const t = setTimeout(() => {
        producer.off('ready', ready);
        reject(new Error('not ready'));
      }, opts.timeoutMs);
      producer.once('ready', ready);
    }).finally(() => (waiting = undefined));
    await waiting.catch(() => {
      throw down();
    });
  };

  return {
    producer,
    redis,
    where,
    producerReady,
    subscriber() {
      const s = redis.duplicate({ connectionName: `${opts.name}:cancel` });
      s.on('error', () => undefined);
      return s;
    },
    async end(c) {
      if (c.status === 'ready') await c.quit().catch(() => c.disconnect());
      else c.disconnect();
    },
  };
}
