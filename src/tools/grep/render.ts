import { MAX_LINE_CHARS } from '../lib/number-lines.js';
import type { GrepHits, GrepMode } from './types.js';

const byPath = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const cut = (s: string): string => (s.length > MAX_LINE_CHARS ? `${s.slice(0, MAX_LINE_CHARS)}… [line cut]` : s);

/** One text for every backend: files sorted by path, lines by number, "--" between non-adjacent groups. */
export function renderHits(
  hits: Extract<GrepHits, { ok: true }>,
  mode: GrepMode,
  lineNumbers: boolean,
  headLimit?: number,
): { text: string; entries: number } {
  let lines: string[] = [];
  let summary = '';
  if (mode === 'files_with_matches') {
    lines = [...hits.files.keys()].sort(byPath);
    summary = lines.length === 0 ? '' : `Found ${lines.length} file${lines.length === 1 ? '' : 's'}`;
  } else if (mode === 'count') {
    const paths = [...hits.counts.keys()].sort(byPath);
    let total = 0;
    for (const p of paths) {
      total += hits.counts.get(p) ?? 0;
      lines.push(`${p}:${hits.counts.get(p) ?? 0}`);
    }
    summary =
      paths.length === 0
        ? ''
        : `Found ${total} matching line${total === 1 ? '' : 's'} in ${paths.length} file${paths.length === 1 ? '' : 's'}`;
  } else {
    for (const p of [...hits.files.keys()].sort(byPath)) {
      const fileLines = (hits.files.get(p) ?? []).slice().sort((a, b) => a.line - b.line);
      let prev = -1;
      for (const h of fileLines) {
        if (h.line === prev) continue;
        if (lines.length > 0 && h.line !== prev + 1) lines.push('--');
        const sep = h.match ? ':' : '-';
        lines.push(lineNumbers ? `${p}${sep}${h.line}${sep}${cut(h.text)}` : `${p}${sep}${cut(h.text)}`);
        prev = h.line;
      }
    }
  }
  const entries = lines.length;
  if (entries === 0) return { text: 'No matches found.', entries: 0 };
  let tail = '';
  if (headLimit !== undefined && entries > headLimit) {
    lines = lines.slice(0, headLimit);
    tail = `\n(results truncated at head_limit ${headLimit}: ${entries - headLimit} more lines)`;
  }
  const head = mode === 'content' ? '' : `${summary}\n`;
  return { text: head + lines.join('\n') + tail, entries };
}
