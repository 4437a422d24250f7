/**
 * A model of Anthropic prompt caching for billing: a request is tools → system → message blocks; a cache
 * entry is written at each breakpoint (prefixes of at least 1024 tokens); a later request reads the
 * longest cached prefix found at a breakpoint or up to 20 blocks before one. Billed input: cache reads
 * at 0.1×, cache writes at 1.25×, the rest (after the last breakpoint) at 1×. The key ignores cache_control.
 * Entries live 5 minutes from their last use: counted as `ttlRequests` requests (default 30, ~10 s a turn).
 */
import { createHash } from 'node:crypto';
import type { Message, ModelRequest } from '../../src/model/model-client.js';
import { estimateMessage, estimateSystem, estimateTools } from '../../src/agent/context/estimate.js';

const MIN_CACHEABLE = 1024;
const LOOKBACK = 20;

export interface Bill {
  total: number;
  read: number;
  write: number;
  uncached: number;
  billed: number;
}

interface Part {
  tokens: number;
  hash: string;
  marked: boolean;
}

function strip(v: object): string {
  const { cache_control: _c, ...rest } = v as Record<string, unknown>;
  return JSON.stringify(rest);
}

function parts(req: Pick<ModelRequest, 'system' | 'tools' | 'messages'>): Part[] {
  const out: Part[] = [];
  let h = '';
  const push = (v: object, tokens: number, role = ''): void => {
    h = createHash('sha256').update(h).update(role).update(strip(v)).digest('hex');
    out.push({ tokens, hash: h, marked: 'cache_control' in v && (v as { cache_control?: unknown }).cache_control !== undefined });
  };
  for (const t of req.tools) push(t, estimateTools([t]));
  for (const b of req.system) push(b, estimateSystem([b]));
  for (const m of req.messages) {
    const blocks = typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content;
    blocks.forEach((b, i) => push(b, estimateMessage({ role: m.role, content: [b] } as Message) - (i === 0 ? 0 : 4), `${m.role}:${i}`));
  }
  return out;
}

export function createCacheSim(ttlRequests = 30) {
  const store = new Map<string, number>();
  let now = 0;
  const live = (h: string): boolean => {
    const t = store.get(h);
    return t !== undefined && now - t <= ttlRequests;
  };
  return {
    bill(req: Pick<ModelRequest, 'system' | 'tools' | 'messages'>): Bill {
      now++;
      const ps = parts(req);
      const cum: number[] = [];
      ps.reduce((n, p, i) => (cum[i] = n + p.tokens), 0);
      const total = cum[cum.length - 1] ?? 0;
      const marks = ps.flatMap((p, i) => (p.marked ? [i] : []));
      let hit = -1;
      for (const b of marks) for (let i = b; i >= Math.max(0, b - LOOKBACK); i--) if (i > hit && live(ps[i]!.hash)) hit = i;
      if (hit >= 0) store.set(ps[hit]!.hash, now);
      const read = hit >= 0 ? cum[hit]! : 0;
      const lastMark = marks[marks.length - 1] ?? -1;
      const upTo = lastMark >= 0 ? cum[lastMark]! : 0;
      const write = upTo >= MIN_CACHEABLE ? Math.max(0, upTo - read) : 0;
      const uncached = total - read - write;
      for (const b of marks) if (cum[b]! >= MIN_CACHEABLE) store.set(ps[b]!.hash, now);
      return { total, read, write, uncached, billed: read * 0.1 + write * 1.25 + uncached };
    },
  };
}
