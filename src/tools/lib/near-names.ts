import { readdirSync } from 'node:fs';
import { basename, dirname, extname, join, relative } from 'node:path';

function distance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * Names in the same folder that look like the missing one (typo, other case, other extension),
 * as paths relative to root, best first. When the folder itself is missing, the nearest existing parent.
 */
export function nearNames(abs: string, root: string, max = 5): { suggestions: string[]; missingDir?: string } {
  const dir = dirname(abs);
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return { suggestions: [], missingDir: relative(root, dir) || '.' };
  }
  const want = basename(abs).toLowerCase();
  const stem = basename(want, extname(want));
  const scored = entries
    .map((name) => {
      const low = name.toLowerCase();
      let score = distance(low, want);
      if (basename(low, extname(low)) === stem) score = Math.min(score, 1);
      if (low.includes(want) || want.includes(low)) score = Math.min(score, 2);
      return { name, score };
    })
    .filter((e) => e.score <= Math.max(2, Math.floor(want.length / 3)))
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  return { suggestions: scored.slice(0, max).map((e) => relative(root, join(dir, e.name))) };
}
