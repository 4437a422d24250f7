import { describe, it, expect, afterEach } from '@jest/globals';
import { join } from 'node:path';
import { ensureMirror, mirrorKey } from '../../src/workspace/mirror.js';
import { makeRemote, sh, tempDir, type Remote } from './git-fixtures.js';

let remote: Remote;
afterEach(() => remote?.cleanup());

describe('ensureMirror', () => {
  it('ensureMirror - first call makes a blob-less bare mirror under mirrors/<host>/<owner>/<name>.git', async () => {
    remote = makeRemote();
    const home = tempDir();
    const { dir } = await ensureMirror({ home, url: remote.url });
    expect(dir.startsWith(join(home, 'mirrors', 'file'))).toBe(true);
    expect(dir.endsWith('/remote.git')).toBe(true);
    expect(sh(dir, 'config', 'remote.origin.partialclonefilter')).toBe('blob:none');
    expect(sh(dir, 'rev-parse', 'refs/heads/main')).toBe(remote.sha('main'));
    expect(sh(dir, 'rev-parse', 'refs/remotes/origin/main')).toBe(remote.sha('main'));
  });

  it('ensureMirror - later calls fetch new commits, prune deleted branches and keep local proofpr/* work', async () => {
    remote = makeRemote();
    remote.commit('feature', { 'f.txt': 'f\n' });
    const home = tempDir();
    const { dir } = await ensureMirror({ home, url: remote.url });
    expect(sh(dir, 'for-each-ref', '--format=%(refname)', 'refs/heads/feature')).toBe('refs/heads/feature');
    sh(dir, 'branch', 'proofpr/3-local-work', 'main');
    const next = remote.commit('main', { 'b.txt': 'b\n' });
    sh(remote.bare, 'branch', '-D', 'feature');
    const again = await ensureMirror({ home, url: remote.url });
    expect(again.dir).toBe(dir);
    expect(sh(dir, 'rev-parse', 'refs/heads/main')).toBe(next);
    expect(sh(dir, 'for-each-ref', '--format=%(refname)', 'refs/heads/feature', 'refs/remotes/origin/feature')).toBe('');
    expect(sh(dir, 'rev-parse', 'refs/heads/proofpr/3-local-work')).not.toBe('');
  });

  it('ensureMirror - remote proofpr/* branches are tracked under refs/remotes/origin, not as local heads', async () => {
    remote = makeRemote();
    const tip = remote.commit('proofpr/7-x', { 'x.txt': 'x\n' });
    const { dir } = await ensureMirror({ home: tempDir(), url: remote.url });
    expect(sh(dir, 'rev-parse', 'refs/remotes/origin/proofpr/7-x')).toBe(tip);
    expect(sh(dir, 'for-each-ref', 'refs/heads/proofpr/')).toBe('');
  });

  it('ensureMirror - concurrent calls on one repository all succeed on one mirror', async () => {
    remote = makeRemote();
    const home = tempDir();
    const dirs = await Promise.all([1, 2, 3].map(() => ensureMirror({ home, url: remote.url })));
    expect(new Set(dirs.map((d) => d.dir)).size).toBe(1);
    expect(sh(dirs[0]!.dir, 'fsck', '--connectivity-only', '--no-dangling')).toBe('');
  });

  it('ensureMirror - refuses a URL that carries credentials without echoing them', async () => {
    await expect(ensureMirror({ home: tempDir(), url: 'https://x-access-token:s3cr3t@example.test/o/r.git' })).rejects.toThrow(
      /must not carry credentials/,
    );
    await expect(ensureMirror({ home: tempDir(), url: 'https://x-access-token:s3cr3t@example.test/o/r.git' })).rejects.not.toThrow(
      /s3cr3t/,
    );
  });

  it('mirrorKey - maps https and scp-like URLs to host/owner/name', () => {
    expect(mirrorKey('https://github.com/octo/hello.git')).toEqual(['github.com', 'octo', 'hello']);
    expect(mirrorKey('git@github.com:octo/hello.git')).toEqual(['github.com', 'octo', 'hello']);
  });
});
