import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { walkTree, type WalkEntry } from '../../src/workspace/walk-tree.js';
import { tempDir } from '../kit/temp.js';
import { writeFiles } from './git-fixtures.js';

/** A new folder holding `files` (each with the content "x"). */
function tree(files: string[]): string {
  const root = tempDir('proofpr-walk-');
  writeFiles(root, Object.fromEntries(files.map((f) => [f, 'x'])));
  return root;
}

const collect = (root: string, opts: Parameters<typeof walkTree>[2]): { rels: string[]; end: string } => {
  const rels: string[] = [];
  const end = walkTree(root, (e: WalkEntry) => void rels.push(e.rel), opts);
  return { rels: rels.sort(), end };
};

describe('walkTree', () => {
  it('walk-tree - visits every file and folder with root-relative POSIX paths and the parent folder', () => {
    const root = tree(['a.txt', 'src/b.ts', 'src/deep/c.ts']);
    const parents = new Map<string, string>();
    expect(walkTree(root, (e) => void parents.set(e.rel, e.parent), { cap: 100 })).toBe('complete');
    expect([...parents.keys()].sort()).toEqual(['a.txt', 'src', 'src/b.ts', 'src/deep', 'src/deep/c.ts']);
    expect(parents.get('src/deep/c.ts')).toBe('src/deep');
    expect(parents.get('a.txt')).toBe('');
  });

  it('walk-tree - starts in a subfolder when `from` is given', () => {
    const root = tree(['a.txt', 'src/b.ts', 'src/deep/c.ts']);
    expect(collect(root, { cap: 100, from: 'src' })).toEqual({ rels: ['src/b.ts', 'src/deep', 'src/deep/c.ts'], end: 'complete' });
  });

  it('walk-tree - skipped entries are neither visited nor entered', () => {
    const root = tree(['keep.ts', 'node_modules/x/index.js', '.git/HEAD']);
    expect(collect(root, { cap: 100, skip: (e) => e.name === 'node_modules' || e.name === '.git' })).toEqual({
      rels: ['keep.ts'],
      end: 'complete',
    });
  });

  it('walk-tree - a symlink to a folder is visited, never followed', () => {
    const root = tree(['real/inside.ts']);
    symlinkSync(join(root, 'real'), join(root, 'link'));
    const outside = tree(['secret.txt']);
    symlinkSync(outside, join(root, 'out'));
    const seen: Array<[string, boolean]> = [];
    walkTree(root, (e) => void seen.push([e.rel, e.dirent.isSymbolicLink()]), { cap: 100 });
    expect(seen.sort()).toEqual([
      ['link', true],
      ['out', true],
      ['real', false],
      ['real/inside.ts', false],
    ]);
  });

  it('walk-tree - the cap counts skipped entries too and ends the walk as truncated', () => {
    const root = tree(['a', 'b', 'node_modules/x']);
    const skip = (e: { name: string }): boolean => e.name === 'node_modules';
    // Three entries at the root, one of them skipped: a cap of 2 is exceeded, a cap of 3 is not.
    expect(collect(root, { cap: 2, skip }).end).toBe('truncated');
    expect(collect(root, { cap: 3, skip })).toEqual({ rels: ['a', 'b'], end: 'complete' });
  });

  it('walk-tree - a visit that returns stop ends the walk at once', () => {
    const root = tree(['a/1', 'a/2', 'b/1']);
    let visits = 0;
    const end = walkTree(root, () => (++visits === 2 ? 'stop' : undefined), { cap: 100 });
    expect({ end, visits }).toEqual({ end: 'stopped', visits: 2 });
  });

  it('walk-tree - a folder it cannot read (gone by the time it is read) is passed over', () => {
    const root = tree(['open/a', 'gone/b']);
    const rels: string[] = [];
    // The folder disappears after it was listed and before the walk reads it: readdir fails there.
    const end = walkTree(
      root,
      (e) => {
        rels.push(e.rel);
        if (e.rel === 'gone') rmSync(join(root, 'gone'), { recursive: true });
      },
      { cap: 100 },
    );
    expect({ rels: rels.sort(), end }).toEqual({ rels: ['gone', 'open', 'open/a'], end: 'complete' });
  });
});
