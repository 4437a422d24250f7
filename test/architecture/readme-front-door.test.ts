/**
 * The README is a front door: at most 300 lines, every page of docs/ reachable from it, and every local
 * link in it and in docs/ pointing at a file that exists.
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const readme = readFileSync('README.md', 'utf8');
const pages = readdirSync('docs').filter((f) => f.endsWith('.md'));

function localLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1] ?? '').filter((l) => l !== '' && !/^[a-z]+:/i.test(l));
}

describe('README front door', () => {
  it('is at most 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('links every page of docs/', () => {
    const linked = new Set(localLinks(readme));
    expect(pages.filter((p) => !linked.has(`docs/${p}`))).toEqual([]);
  });

  it('every local link in the README and in docs/ points at a file that exists', () => {
    const broken = ['README.md', ...pages.map((p) => `docs/${p}`)].flatMap((file) =>
      localLinks(readFileSync(file, 'utf8'))
        .filter((l) => !existsSync(join(dirname(file), l)))
        .map((l) => `${file}: ${l}`),
    );
    expect(broken).toEqual([]);
  });
});
