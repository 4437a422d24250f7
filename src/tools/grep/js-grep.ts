import { lstat } from 'node:fs/promises';
import { readRegularFileAsync } from '../../workspace/special-file.js';
import { join } from 'node:path';
import { walkFiles } from '../lib/list-files.js';
import { splitLines } from '../lib/number-lines.js';
import { emptyHits, type GrepBackend, type GrepQuery, type LineHit } from './types.js';

/** Compile like ripgrep would: a leading (?i) becomes the i flag; Unicode mode when the pattern allows it. */
export function compilePattern(pattern: string, ignoreCase: boolean): RegExp {
  let p = pattern;
  let flags = ignoreCase ? 'i' : '';
  const inline = /^\(\?([imsx]+)\)/.exec(p);
  if (inline) {
    p = p.slice(inline[0].length);
    for (const f of inline[1] ?? '') if ((f === 'i' || f === 'm' || f === 's') && !flags.includes(f)) flags += f;
  }
  try {
    return new RegExp(p, `${flags}u`);
  } catch {
    return new RegExp(p, flags);
  }
}

function searchLines(lines: string[], re: RegExp, q: GrepQuery): { hits: LineHit[]; count: number } {
  const matchIdx: number[] = [];
  for (let i = 0; i < lines.length; i++) if (re.test(lines[i] ?? '')) matchIdx.push(i);
  if (q.mode !== 'content') return { hits: [], count: matchIdx.length };
  const keep = new Map<number, boolean>();
  for (const i of matchIdx) {
    for (let j = Math.max(0, i - q.context); j <= Math.min(lines.length - 1, i + q.context); j++) if (!keep.has(j)) keep.set(j, false);
    keep.set(i, true);
  }
  const hits = [...keep.entries()].sort((a, b) => a[0] - b[0]).map(([i, match]) => ({ line: i + 1, text: lines[i] ?? '', match }));
  return { hits, count: matchIdx.length };
}

/** Files larger than this are not searched by the JS backend (a bound on what one read holds in memory). */
export const JS_GREP_MAX_FILE_BYTES = 32 * 1024 * 1024;

/** Pure JS: walks with the .gitignore rules, skips symlinks, special files, files over the bound and binary files (NUL in the first 8000 bytes). */
export const jsBackend: GrepBackend = async (q, root, _signal) => {
  let re: RegExp;
  try {
    re = compilePattern(q.pattern, q.ignoreCase);
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
  const base = q.inRoot ? root : q.target;
  let files: string[];
  if (q.targetIsFile) files = [q.inRoot ? q.target : ''];
  else files = await walkFiles(base, q.inRoot ? q.target : '.');
  const hits = emptyHits();
  const shown = (f: string): string => (q.inRoot ? f : f === '' ? q.target : join(q.target, f));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const f = files[next++] as string;
      let buf: Buffer;
      try {
        // Like rg (no --follow): a symlink met while walking is not searched; it could point anywhere.
        if (!q.targetIsFile && (await lstat(join(base, f))).isSymbolicLink()) continue;
        // Pipes, sockets and devices are never opened in a blocking way, and are skipped.
        buf = await readRegularFileAsync(f === '' ? base : join(base, f), JS_GREP_MAX_FILE_BYTES);
      } catch {
        continue;
      }
      if (buf.subarray(0, 8000).includes(0)) continue;
      const { hits: lineHits, count } = searchLines(splitLines(buf.toString('utf8')), re, q);
      if (count === 0) continue;
      if (q.mode === 'count') hits.counts.set(shown(f), count);
      else hits.files.set(shown(f), lineHits);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return hits;
};
