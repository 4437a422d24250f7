import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ENTRY_FILE, readMeta } from './dependency-cache.js';

export interface DependencyCacheGcOptions {
  /** Entries not used since this time (ms since the epoch) are removed. */
  unusedSince: number;
  /** Then the least recently used go until the rest fits. */
  maxBytes: number;
  /** An entry used this recently is never removed (a run may be using it). Default one hour. */
  inUseMs?: number;
  dryRun?: boolean;
  now?: number;
}

export interface DependencyCacheGcResult {
  removed: string[];
  keptBytes: number;
  keptEntries: number;
}

/**
 * `proofpr gc` for the dependency cache: unfinished entries (`.tmp-*` older than the in-use window),
 * entries unused for the retention period, then least recently used entries until the cache is at
 * most `maxBytes`. The use time is the entry file's mtime (touched by every restore).
 */
export async function gcDependencyCache(cacheDir: string, opts: DependencyCacheGcOptions): Promise<DependencyCacheGcResult> {
  const now = opts.now ?? Date.now();
  const inUse = opts.inUseMs ?? 3_600_000;
  const removed: string[] = [];
  const drop = async (name: string): Promise<void> => {
    removed.push(name);
    if (!opts.dryRun) await rm(join(cacheDir, name), { recursive: true, force: true });
  };
  const live: Array<{ name: string; used: number; bytes: number }> = [];
  for (const e of await readdir(cacheDir, { withFileTypes: true }).catch(() => [])) {
    if (!e.isDirectory()) continue;
    const dir = join(cacheDir, e.name);
    const meta = await readMeta(dir);
    const used = meta
      ? ((await stat(join(dir, ENTRY_FILE)).catch(() => undefined))?.mtimeMs ?? 0)
      : ((await stat(dir).catch(() => undefined))?.mtimeMs ?? 0);
    if (now - used < inUse) {
      live.push({ name: e.name, used: Infinity, bytes: meta?.bytes ?? 0 });
      continue;
    }
    if (!meta || used < opts.unusedSince) await drop(e.name);
    else live.push({ name: e.name, used, bytes: meta.bytes });
  }
  live.sort((a, b) => a.used - b.used);
  let total = live.reduce((n, l) => n + l.bytes, 0);
  for (const l of live) {
    if (total <= opts.maxBytes || l.used === Infinity) break;
    await drop(l.name);
    total -= l.bytes;
  }
  return { removed, keptBytes: total, keptEntries: live.filter((l) => !removed.includes(l.name)).length };
}
