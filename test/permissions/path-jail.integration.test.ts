import { describe, it, expect, beforeAll } from '@jest/globals';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { resolveInside } from '../../src/agent/permissions/path-jail.js';
import { makePolicyRepo } from './fixture-repo.js';

let repo: { root: string; outside: string };
beforeAll(() => {
  repo = makePolicyRepo();
  mkdirSync(join(repo.outside, 'gitdir'));
  symlinkSync(join(repo.outside, 'gitdir'), join(repo.root, 'to-gitdir'));
});

describe('path jail', () => {
  it('path jail - resolves worktree paths, absolute or relative, existing or not', () => {
    expect(resolveInside(repo.root, 'src/a.ts')).toMatchObject({ ok: true, rel: 'src/a.ts' });
    expect(resolveInside(repo.root, join(repo.root, 'src/new/x.ts'))).toMatchObject({ ok: true, rel: 'src/new/x.ts' });
    expect(resolveInside(repo.root, 'link-inside.ts')).toMatchObject({ ok: true, rel: 'src/a.ts' });
    expect(resolveInside(repo.root, '.')).toMatchObject({ ok: true, rel: '' });
  });

  it('path jail - refuses symlink and .. escapes, including through missing directories', () => {
    for (const p of ['../x', 'evil/passwd', 'up/repo/../../etc', '/etc/passwd', 'missing/../../x', 'evil/new-file', '~/x']) {
      expect(resolveInside(repo.root, p)).toMatchObject({ ok: false });
    }
  });

  it('path jail - refuses .git internals and configured git dirs for reading and writing', () => {
    expect(resolveInside(repo.root, '.git/config')).toMatchObject({ ok: false });
    expect(resolveInside(repo.root, 'src/../.git')).toMatchObject({ ok: false });
    expect(resolveInside(repo.root, 'to-gitdir/HEAD', { gitDirs: [join(repo.outside, 'gitdir')] })).toMatchObject({ ok: false });
  });

  it('path jail - .github/workflows is readable but only writable when configured', () => {
    expect(resolveInside(repo.root, '.github/workflows/ci.yml')).toMatchObject({ ok: true });
    expect(resolveInside(repo.root, '.github/workflows/ci.yml', { access: 'write' })).toMatchObject({ ok: false });
    expect(resolveInside(repo.root, '.github/workflows/ci.yml', { access: 'write', writableWorkflows: true })).toMatchObject({ ok: true });
  });
});
