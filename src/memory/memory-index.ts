/**
 * The numbered index of a repository's memory: what `/agent memory` replies and what later runs get in
 * their prompt (one line per entry, at most MAX_ENTRIES lines, newest kept when cut).
 */
import { MAX_ENTRIES } from './memory-store.js';
import type { MemoryEntry } from './types.js';

const one = (s: string): string =>
  s
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.;:,\s]+$/, '');

export function memoryLine(e: MemoryEntry, n: number): string {
  const why = one(e.why) ? ` Why: ${one(e.why)}.` : '';
  const where = one(e.where) ? ` Applies to: ${one(e.where)}.` : '';
  return `${n}. [${e.date}] ${one(e.rule)}.${why}${where} (@${e.author}, ${e.url})`;
}

/** The index text (undefined when there is nothing to say). */
export function renderMemoryIndex(entries: readonly MemoryEntry[]): string | undefined {
  if (entries.length === 0) return undefined;
  const from = Math.max(0, entries.length - MAX_ENTRIES);
  return entries
    .slice(from)
    .map((e, i) => memoryLine(e, from + i + 1))
    .join('\n');
}
