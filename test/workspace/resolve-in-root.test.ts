import { describe, it, expect, beforeAll } from '@jest/globals';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveInRoot } from '../../src/workspace/resolve-in-root.js';
import { resolveInside } from '../../src/agent/permissions/path-jail.js';
import { resolvePath } from '../../src/tools/resolve-path.js';
import { tempDir } from '../kit/temp.js';

let base: string;
let root: string;
beforeAll(() => {
  base = tempDir('proofpr-resolve-');
  root = join(base, 'repo');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src/a.ts'), 'x');
  symlinkSync('/etc/proofpr-missing/cron', join(root, 'dangling'));
  symlinkSync('../outside-dir', join(root, 'dangling-rel'));
  symlinkSync('src/a.ts', join(root, 'inside-link'));
  symlinkSync('loop-b', join(root, 'loop-a'));
  symlinkSync('loop-a', join(root, 'loop-b'));
});

/** The policy and the tools answer through the same function: they agree on every case. */
function both(p: string): { policy: boolean; tools: boolean } {
  return { policy: resolveInside(root, p).ok, tools: resolvePath(p, { root }).ok };
}

describe('one path resolver for the policy and the tools', () => {
  it('resolve - ".." after a missing folder is refused by both (it was lexical in the tools)', () => {
    expect(resolveInRoot(root, 'missing/../src/a.ts')).toEqual({ ok: false, why: 'climb' });
    expect(both('missing/../src/a.ts')).toEqual({ policy: false, tools: false });
  });

  it('resolve - "~" is a home directory for both (the tools read it as a folder named ~)', () => {
    expect(resolveInRoot(root, '~/x')).toEqual({ ok: false, why: 'home' });
    expect(both('~/.ssh/id_rsa')).toEqual({ policy: false, tools: false });
  });

  it('resolve - a NUL byte is refused by both', () => {
    expect(resolveInRoot(root, 'src/a.ts\0.png')).toEqual({ ok: false, why: 'nul' });
    expect(both('src/a.ts\0x')).toEqual({ policy: false, tools: false });
  });

  it('resolve - a dangling symlink resolves to where it points, absolute or relative', () => {
    expect(resolveInRoot(root, 'dangling')).toEqual({ ok: false, why: 'outside', abs: '/etc/proofpr-missing/cron' });
    expect(resolveInRoot(root, 'dangling-rel/new.txt')).toEqual({ ok: false, why: 'outside', abs: join(base, 'outside-dir/new.txt') });
    expect(both('dangling')).toEqual({ policy: false, tools: false });
  });

  it('resolve - inside paths, links inside and new files resolve alike', () => {
    expect(resolveInRoot(root, 'inside-link')).toEqual({ ok: true, abs: join(root, 'src/a.ts'), rel: 'src/a.ts' });
    expect(resolveInRoot(root, 'src/new/deep.ts')).toEqual({ ok: true, abs: join(root, 'src/new/deep.ts'), rel: 'src/new/deep.ts' });
    expect(resolveInRoot(root, `${root}/src/../src/a.ts`)).toMatchObject({ ok: true, rel: 'src/a.ts' });
    expect(resolveInRoot(root, 'a.ts', { cwd: join(root, 'src') })).toMatchObject({ ok: true, rel: 'src/a.ts' });
    expect(both('src/a.ts')).toEqual({ policy: true, tools: true });
  });

  it('resolve - symlink loops and .git are refused', () => {
    expect(resolveInRoot(root, 'loop-a')).toEqual({ ok: false, why: 'loop' });
    expect(resolveInRoot(root, 'src/.git/config')).toMatchObject({ ok: false, why: 'git' });
    expect(resolveInRoot(root, join(base, 'gd/HEAD'), { gitDirs: [join(base, 'gd')] })).toMatchObject({ ok: false, why: 'git' });
  });
});
