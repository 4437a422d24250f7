/**
 * The numbered index of a repository's memory: what `/agent memory` replies and what later runs get in
 * their prompt: one line per entry with its type and absolute date, at most MAX_ENTRIES lines and
 * MAX_INDEX_BYTES bytes (seed 003 §4.1: 200 lines / 25 KB), newest kept when cut, the cut said.
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
  return `${n}. [${e.type ?? 'feedback'} · ${e.date}] ${one(e.rule)}.${why}${where} (@${e.author}, ${e.url})`;
}

/** The index injected into prompts is at most this many bytes (with the line cap, seed 003 §4.1). */
export const MAX_INDEX_BYTES = 25_000;

/** The index text (undefined when there is nothing to say). */
export function renderMemoryIndex(entries: readonly MemoryEntry[]): string | undefined {
  if (entries.length === 0) return undefined;
  const lines: string[] = [];
  let bytes = 0;
  // Newest first until a cap is reached (one line is kept for the note), then back in order.
  for (let i = entries.length - 1; i >= 0 && lines.length < MAX_ENTRIES - 1; i--) {
    const line = memoryLine(entries[i]!, i + 1);
    const size = Buffer.byteLength(line, 'utf8') + 1;
    if (bytes + size > MAX_INDEX_BYTES - 200) break;
    lines.unshift(line);
    bytes += size;
  }
  const cut = entries.length - lines.length;
  if (cut > 0)
    lines.unshift(`(${cut} older entries not shown: the index is capped at ${MAX_ENTRIES} lines and ${MAX_INDEX_BYTES / 1000} KB)`);
  return lines.join('\n');
}
