import { describe, it, expect, beforeEach } from '@jest/globals';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo, useRepo, call } from './helpers/context.js';
import { gitListFiles, walkFiles } from '../../src/tools/lib/list-files.js';

const repo = useRepo({
  git: true,
  files: {
    '.gitignore': 'dist/\n*.log\n!keep.log\n',
    'src/a.ts': 'a',
    'src/b.ts': 'b',
    'src/lib/c.ts': 'c',
    'src/lib/.gitignore': 'gen.ts\n',
    'src/lib/gen.ts': 'g',
    'dist/out.ts': 'o',
    'debug.log': 'l',
    'keep.log': 'k',
    '.github/ci.ts': 'x',
  },
  add: ['src/a.ts'],
});
/** Modification times (seconds): Glob lists the newest first. */
const MTIMES: Record<string, number> = {
  'src/a.ts': 1_000_000,
  'src/b.ts': 3_000_000,
  'src/lib/c.ts': 2_000_000,
  '.github/ci.ts': 500_000,
};
beforeEach(() => {
  for (const [rel, s] of Object.entries(MTIMES)) utimesSync(join(repo.root, rel), s, s);
});

describe('Glob', () => {
  it('glob - lists matches newest first and respects .gitignore (nested too)', async () => {
    const r = await call(repo.ctx, 'Glob', { pattern: '**/*.ts' });
    expect(r).toMatchObject({
      isError: false,
      forModel: 'src/b.ts\nsrc/lib/c.ts\nsrc/a.ts\n.github/ci.ts',
      meta: { count: 4, truncated: false },
    });
  });

  it('glob - never lists .git and honours negated ignore rules', async () => {
    const r = await call(repo.ctx, 'Glob', { pattern: '**/*' });
    expect(r.forModel.split('\n').sort()).toEqual([
      '.github/ci.ts',
      '.gitignore',
      'keep.log',
      'src/a.ts',
      'src/b.ts',
      'src/lib/.gitignore',
      'src/lib/c.ts',
    ]);
  });

  it('glob - a pattern without ** matches only at the top of the folder', async () => {
    const r = await call(repo.ctx, 'Glob', { pattern: '*.ts', path: 'src' });
    expect(r.forModel).toBe('src/b.ts\nsrc/a.ts');
  });

  it('glob - supports braces and path', async () => {
    repo.write('src/x.tsx', '');
    utimesSync(join(repo.root, 'src/x.tsx'), 1, 1);
    const r = await call(repo.ctx, 'Glob', { pattern: '*.{tsx,ts}', path: 'src' });
    expect(r.forModel).toBe('src/b.ts\nsrc/a.ts\nsrc/x.tsx');
  });

  it('glob - caps the list at 100 and says how many more matched', async () => {
    for (let i = 0; i < 130; i++) repo.write(`many/f${String(i).padStart(3, '0')}.txt`, '');
    const r = await call(repo.ctx, 'Glob', { pattern: 'many/*.txt' });
    const lines = r.forModel.split('\n');
    expect(lines).toHaveLength(101);
    expect(lines[100]).toBe('(results truncated: 30 more. Use a narrower pattern or path.)');
  });

  it('glob - says when nothing matched', async () => {
    const r = await call(repo.ctx, 'Glob', { pattern: '**/*.rs' });
    expect(r).toMatchObject({ isError: false, forModel: 'No files matched "**/*.rs".' });
  });

  it('glob - refuses a missing folder and a file as path', async () => {
    expect((await call(repo.ctx, 'Glob', { pattern: '*', path: 'nope' })).forModel).toBe(
      'Folder does not exist: nope. Use a folder inside the repository, or leave path out to search from the root.',
    );
    expect((await call(repo.ctx, 'Glob', { pattern: '*', path: 'src/a.ts' })).forModel).toBe(
      'path must be a folder, and src/a.ts is a file. Leave path out or give its folder.',
    );
  });

  it('glob - refuses a path inside .git', async () => {
    const r = await call(repo.ctx, 'Glob', { pattern: '*', path: '.git' });
    expect(r.errorKind).toBe('denied');
  });

  it('glob - the JS walk and git ls-files list the same files', async () => {
    const viaGit = (await gitListFiles(repo.root, '.'))?.sort();
    const viaJs = (await walkFiles(repo.root, '.')).sort();
    expect(viaJs).toEqual(viaGit);
    expect((await walkFiles(repo.root, 'src')).sort()).toEqual((await gitListFiles(repo.root, 'src'))?.sort());
  });

  it('glob - works outside a git repository (JS walk)', async () => {
    const plain = makeRepo({ files: { '.gitignore': 'out/\n', 'a.ts': '', 'out/b.ts': '' } });
    const r = await call(plain.ctx, 'Glob', { pattern: '**/*.ts' });
    expect(r.forModel).toBe('a.ts');
  });
});
