/**
 * Time-based clearing: once the prompt cache has expired (no request within its TTL), the next request
 * rewrites the whole prefix anyway, so clearing old tool results then costs no cache hit. Results beyond
 * the latest `keepRecent` become the microcompact stub (the tool, its input, how to get it again).
 */
import type { Message } from '../../model/model-client.js';
import { microcompact, type MicrocompactResult } from './microcompact.js';

/** The prompt cache's default lifetime (ephemeral cache_control): 5 minutes. */
export const DEFAULT_CACHE_TTL_MS = 5 * 60_000;

export interface CacheClock {
  /** Call when a request is prepared (about to be sent). */
  sent(): void;
  /** Old tool results cleared when the cache expired since the last request; undefined when it has not (or nothing to clear). */
  clearIfExpired(messages: Message[]): { micro: MicrocompactResult; idleMs: number } | undefined;
}

export function createCacheClock(opts: { ttlMs?: number; keepRecent: number; now?: () => number }): CacheClock {
  const ttl = opts.ttlMs ?? DEFAULT_CACHE_TTL_MS;
  if (!(ttl > 0)) throw new Error(`cacheTtlMs must be a positive number of milliseconds, got ${String(opts.ttlMs)}`);
  const now = opts.now ?? Date.now;
  let last: number | undefined;
  return {
    sent() {
      last = now();
    },
    clearIfExpired(messages) {
      if (last === undefined) return undefined;
      const idleMs = now() - last;
      if (idleMs <= ttl) return undefined;
      const micro = microcompact(messages, { protectRecent: opts.keepRecent });
      return micro.cleared > 0 ? { micro, idleMs } : undefined;
    },
  };
}
