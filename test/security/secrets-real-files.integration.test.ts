import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { secretContentRule } from '../../src/secrets/files.js';

/*
 * False positives on real files nobody wrote for this test: every file of every package installed in this
 * repository's node_modules (source, source maps, JSON data, fixtures, dotfiles, binaries) is judged by
 * the content rules as a tracked file would be. Packages ship no credentials: a masked file there is a
 * wrong mask (docs/benchmarks.md, "Secrets by content": the name-based code masked 2, the first content
 * rules 39, mostly source maps).
 */

function packageRoots(): string[] {
  const top = readdirSync('node_modules').filter((n) => !n.startsWith('.'));
  return top.flatMap((n) =>
    n.startsWith('@') ? readdirSync(join('node_modules', n)).map((m) => join('node_modules', n, m)) : [join('node_modules', n)],
  );
}

function judgeAll(root: string, rel: string, seen: { files: number; masked: string[] }): void {
  for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.isSymbolicLink()) continue;
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) judgeAll(root, r, seen);
    else if (e.isFile() && statSync(join(root, r)).size > 0) {
      seen.files++;
      const rule = secretContentRule(r, readFileSync(join(root, r)).subarray(0, 256 * 1024));
      if (rule) seen.masked.push(`${root}/${r} (${rule})`);
    }
  }
}

describe('secrets by content - real files', () => {
  it('secrets real - no file of the installed npm packages is masked', () => {
    const seen = { files: 0, masked: [] as string[] };
    const roots = packageRoots();
    for (const root of roots) judgeAll(root, '', seen);
    process.stdout.write(`secrets by content: ${seen.masked.length} of ${seen.files} files of ${roots.length} packages masked\n`);
    expect(seen.files).toBeGreaterThan(1000);
    expect(seen.masked).toEqual([]);
  }, 300_000);
});
