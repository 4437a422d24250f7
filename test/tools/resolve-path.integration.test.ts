import { describe, it, expect } from '@jest/globals';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useRepo, git } from './helpers/context.js';
import { resolvePath } from '../../src/tools/resolve-path.js';

const repo = useRepo({ git: true });

const GIT_REFUSAL = (p: string) =>
  `Access to "${p}" is refused: files inside .git are off limits to every tool. Inspect the repository with git commands through Bash instead (git status, git log, git diff, git show).`;

describe('resolvePath', () => {
  it('resolve-path - resolves relative and absolute paths inside the root, existing or not', () => {
    expect(resolvePath('src/new/file.ts', { root: repo.root })).toEqual({
      ok: true,
      abs: join(repo.root, 'src/new/file.ts'),
      rel: 'src/new/file.ts',
      inRoot: true,
    });
    expect(resolvePath(join(repo.root, 'a.ts'), { root: repo.root })).toMatchObject({ ok: true, rel: 'a.ts' });
    expect(resolvePath('.', { root: repo.root })).toMatchObject({ ok: true, rel: '.' });
  });

  it('resolve-path - refuses .. escapes', () => {
    const r = resolvePath('../../etc/passwd', { root: repo.root });
    expect(r.ok).toBe(false);
  });

  it('resolve-path - refuses a symlink that points outside the root, even for a missing file under it', () => {
    symlinkSync(repo.runDir, join(repo.root, 'link'));
    const r = resolvePath('link/x.txt', { root: repo.root });
    expect(r).toEqual({
      ok: false,
      message: `Access to "link/x.txt" is refused: it resolves to ${join(repo.runDir, 'x.txt')}, outside the repository at ${repo.root}. Use a path relative to the repository root, or an absolute path inside it.`,
    });
  });

  it('resolve-path - refuses .git at any depth and through a symlink', () => {
    expect(resolvePath('.git/config', { root: repo.root })).toEqual({ ok: false, message: GIT_REFUSAL('.git/config') });
    expect(resolvePath('.git', { root: repo.root })).toEqual({ ok: false, message: GIT_REFUSAL('.git') });
    expect(resolvePath('vendor/lib/.git/HEAD', { root: repo.root }).ok).toBe(false);
    symlinkSync(join(repo.root, '.git'), join(repo.root, 'g'));
    expect(resolvePath('g/config', { root: repo.root })).toEqual({ ok: false, message: GIT_REFUSAL('g/config') });
  });

  it('resolve-path - refuses the gitdir a linked worktree .git file points to', () => {
    repo.write('f.txt', 'x');
    git(repo.root, 'add', 'f.txt');
    git(repo.root, 'commit', '-qm', 'init');
    const wt = join(repo.runDir, 'wt');
    git(repo.root, 'worktree', 'add', '-q', wt);
    const gitdir = join(repo.root, '.git', 'worktrees', 'wt');
    // a worktree rooted where its gitdir is reachable through a symlink inside it
    symlinkSync(gitdir, join(wt, 'meta'));
    expect(resolvePath('meta/HEAD', { root: wt })).toEqual({ ok: false, message: GIT_REFUSAL('meta/HEAD') });
    expect(resolvePath('f.txt', { root: wt }).ok).toBe(true);
  });

  it('resolve-path - allows read roots only when given', () => {
    mkdirSync(join(repo.runDir, 'tool-output'));
    writeFileSync(join(repo.runDir, 'tool-output', 'c.txt'), 'x');
    const p = join(repo.runDir, 'tool-output', 'c.txt');
    expect(resolvePath(p, { root: repo.root }).ok).toBe(false);
    expect(resolvePath(p, { root: repo.root, readRoots: [join(repo.runDir, 'tool-output')] })).toEqual({
      ok: true,
      abs: p,
      rel: p,
      inRoot: false,
    });
  });

  it('resolve-path - refuses an empty path', () => {
    expect(resolvePath(' ', { root: repo.root })).toEqual({
      ok: false,
      message: 'The path is empty. Give a file path relative to the repository root or an absolute path inside it.',
    });
  });
});
