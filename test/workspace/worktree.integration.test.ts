import { describe, it, expect, afterEach } from '@jest/globals';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { filesChanged } from '../../src/workspace/diff-stat.js';
import { treeHash } from '../../src/workspace/tree-hash.js';
import { join } from 'node:path';
import { ensureMirror } from '../../src/workspace/mirror.js';
import { commitWork } from '../../src/workspace/publish.js';
import { createWorktree } from '../../src/workspace/worktree.js';
import { makeRemote, sh, tempDir, writeFiles, type Remote } from './git-fixtures.js';

const identity = { name: 'proofpr[bot]', email: 'bot@example.test' };
let remote: Remote;
afterEach(() => remote?.cleanup());

async function setup(): Promise<{ dir: string; worktreesDir: string }> {
  remote = makeRemote();
  const home = tempDir();
  const { dir } = await ensureMirror({ home, url: remote.url });
  return { dir, worktreesDir: join(home, 'worktrees') };
}

describe('createWorktree', () => {
  it('createWorktree - checks out baseRef on a new branch at <worktreesDir>/<runId> with an owner marker', async () => {
    const { dir, worktreesDir } = await setup();
    const wt = await createWorktree({ repoDir: dir, baseRef: 'main', branch: 'proofpr/1-fix', worktreesDir, runId: 'r1' });
    expect(wt.path).toBe(realpathSync(join(worktreesDir, 'r1')));
    expect(wt.baseSha).toBe(remote.sha('main'));
    expect(sh(wt.path, 'symbolic-ref', 'HEAD')).toBe('refs/heads/proofpr/1-fix');
    expect(sh(wt.path, 'status', '--porcelain')).toBe('');
    expect(existsSync(join(wt.path, 'src/a.txt'))).toBe(true);
    expect(wt.gitDir).toBe(join(dir, 'worktrees', 'r1'));
    expect(existsSync(join(worktreesDir, 'r1.owner.json'))).toBe(true);
    await wt.remove();
    await wt.remove();
    expect(existsSync(wt.path)).toBe(false);
    expect(readdirSync(worktreesDir)).toEqual([]);
    expect(sh(dir, 'worktree', 'list').split('\n')).toHaveLength(1);
  });

  it('createWorktree - two concurrent runs on one repository both get worktrees and both commit', async () => {
    const { dir, worktreesDir } = await setup();
    const [a, b] = await Promise.all(
      ['a', 'b'].map((n) => createWorktree({ repoDir: dir, baseRef: 'main', branch: `proofpr/${n}-x`, worktreesDir, runId: `run-${n}` })),
    );
    writeFileSync(join(a!.path, 'a.txt'), 'from a\n');
    writeFileSync(join(b!.path, 'b.txt'), 'from b\n');
    const [ca, cb] = await Promise.all([a!, b!].map((w) => commitWork({ worktree: w.path, message: 'work', identity })));
    expect(sh(dir, 'rev-parse', 'refs/heads/proofpr/a-x')).toBe((ca as { sha: string }).sha);
    expect(sh(dir, 'rev-parse', 'refs/heads/proofpr/b-x')).toBe((cb as { sha: string }).sha);
    expect(sh(dir, 'show', 'proofpr/a-x:a.txt')).toBe('from a');
    await Promise.all([a!.remove(), b!.remove()]);
    expect(sh(dir, 'worktree', 'list').split('\n')).toHaveLength(1);
  });

  it('createWorktree - resets an existing branch to baseRef unless continueBranch, which keeps its tip', async () => {
    const { dir, worktreesDir } = await setup();
    const first = await createWorktree({ repoDir: dir, baseRef: 'main', branch: 'proofpr/2-y', worktreesDir, runId: 'r1' });
    writeFileSync(join(first.path, 'y.txt'), 'y\n');
    const c = (await commitWork({ worktree: first.path, message: 'y', identity })) as { sha: string };
    await first.remove();
    const cont = await createWorktree({
      repoDir: dir,
      baseRef: 'main',
      branch: 'proofpr/2-y',
      worktreesDir,
      runId: 'r2',
      continueBranch: true,
    });
    expect(sh(cont.path, 'rev-parse', 'HEAD')).toBe(c.sha);
    expect(cont.baseSha).toBe(remote.sha('main'));
    await cont.remove();
    const fresh = await createWorktree({ repoDir: dir, baseRef: 'main', branch: 'proofpr/2-y', worktreesDir, runId: 'r3' });
    expect(sh(fresh.path, 'rev-parse', 'HEAD')).toBe(remote.sha('main'));
    expect(sh(dir, 'reflog', 'show', '--format=%H', 'proofpr/2-y')).toContain(c.sha);
    await fresh.remove();
  });

  it('createWorktree - continueBranch starts from the remote copy of the branch when the mirror has none', async () => {
    remote = makeRemote();
    const tip = remote.commit('proofpr/4-z', { 'z.txt': 'z\n' });
    const home = tempDir();
    const { dir } = await ensureMirror({ home, url: remote.url });
    const wt = await createWorktree({
      repoDir: dir,
      baseRef: 'main',
      branch: 'proofpr/4-z',
      worktreesDir: join(home, 'wt'),
      runId: 'r',
      continueBranch: true,
    });
    expect(sh(wt.path, 'rev-parse', 'HEAD')).toBe(tip);
    expect(wt.baseSha).toBe(remote.sha('main'));
    await wt.remove();
  });

  it('createWorktree - names a missing base branch and leaves nothing behind', async () => {
    const { dir, worktreesDir } = await setup();
    await expect(createWorktree({ repoDir: dir, baseRef: 'gone', branch: 'proofpr/5-q', worktreesDir, runId: 'r' })).rejects.toThrow(
      /base branch or commit 'gone' does not exist.*deleted on the remote/,
    );
    expect(readdirSync(worktreesDir)).toEqual([]);
  });

  it('createWorktree - refuses a branch already checked out by another live run', async () => {
    const { dir, worktreesDir } = await setup();
    const a = await createWorktree({ repoDir: dir, baseRef: 'main', branch: 'proofpr/6-b', worktreesDir, runId: 'a' });
    await expect(createWorktree({ repoDir: dir, baseRef: 'main', branch: 'proofpr/6-b', worktreesDir, runId: 'b' })).rejects.toThrow(
      /checked out in another worktree/,
    );
    await a.remove();
  });

  it('createWorktree - pool parks a finished worktree and the next run reuses it, reset and clean', async () => {
    const { dir, worktreesDir } = await setup();
    const a = await createWorktree({ repoDir: dir, baseRef: 'main', branch: 'proofpr/8-p', worktreesDir, runId: 'a', pool: true });
    expect(a.reused).toBe(false);
    writeFileSync(join(a.path, 'README.md'), 'dirty\n');
    writeFileSync(join(a.path, 'junk.txt'), 'junk\n');
    await a.remove();
    expect(existsSync(a.path)).toBe(false);
    const next = remote.commit('main', { 'new.txt': 'new\n' });
    await ensureMirror({ home: join(worktreesDir, '..'), url: remote.url });
    const b = await createWorktree({ repoDir: dir, baseRef: 'main', branch: 'proofpr/8-p', worktreesDir, runId: 'b', pool: true });
    expect(b.reused).toBe(true);
    expect(sh(b.path, 'rev-parse', 'HEAD')).toBe(next);
    expect(sh(b.path, 'status', '--porcelain', '--ignored')).toBe('');
    expect(sh(b.path, 'symbolic-ref', 'HEAD')).toBe('refs/heads/proofpr/8-p');
    await b.remove();
  });

  it('createWorktree - linkDirs links ignored dependency folders of the checkout, never hashed, committed or deleted', async () => {
    remote = makeRemote({ 'README.md': '# r\n', '.gitignore': 'node_modules/\n.venv\n' });
    const src = join(remote.root, 'checkout');
    sh(remote.root, 'clone', '-q', remote.bare, src);
    writeFiles(src, { 'node_modules/dep/index.js': 'dep\n', '.venv/bin/python': '#!\n', 'vendor/lib.txt': 'not ignored\n' });
    const worktreesDir = tempDir();
    const opts = {
      repoDir: src,
      baseRef: 'main',
      branch: 'proofpr/9-l',
      worktreesDir,
      linkDirs: ['node_modules', '.venv', 'vendor', 'venv'],
      pool: true,
    };
    const a = await createWorktree({ ...opts, runId: 'a' });
    expect(a.linked.map((l) => l.name)).toEqual(['node_modules', '.venv']);
    expect(readlinkSync(join(a.path, 'node_modules'))).toBe(realpathSync(join(src, 'node_modules')));
    expect(lstatSync(join(a.path, 'node_modules')).isSymbolicLink()).toBe(true);
    expect(existsSync(join(a.path, 'vendor'))).toBe(false);
    expect(readFileSync(join(a.path, 'node_modules/dep/index.js'), 'utf8')).toBe('dep\n');
    expect(await treeHash(a.path)).toBe(sh(a.path, 'rev-parse', 'HEAD^{tree}'));
    expect(await filesChanged(a.path, a.baseSha)).toEqual([]);
    writeFileSync(join(a.path, 'fix.txt'), 'fix\n');
    await commitWork({ worktree: a.path, message: 'fix', identity, gitDir: a.gitDir });
    expect(sh(a.path, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n').sort()).toEqual(['.gitignore', 'README.md', 'fix.txt']);
    await a.remove();
    const b = await createWorktree({ ...opts, branch: 'proofpr/9-m', runId: 'b' });
    expect(b.reused).toBe(true);
    expect(b.linked.map((l) => l.name)).toEqual(['node_modules', '.venv']);
    expect(lstatSync(join(b.path, 'node_modules')).isSymbolicLink()).toBe(true);
    await b.remove();
    await createWorktree({ ...opts, pool: false, branch: 'proofpr/9-n', runId: 'c' }).then((c) => c.remove());
    expect(readFileSync(join(src, 'node_modules/dep/index.js'), 'utf8')).toBe('dep\n');
    expect(existsSync(join(src, '.venv/bin/python'))).toBe(true);
  });

  it('createWorktree - linkDirs links a dependency folder that is itself a symlink (installed elsewhere), to its real target', async () => {
    remote = makeRemote({ 'README.md': '# r\n', '.gitignore': 'node_modules\n' });
    const src = join(remote.root, 'checkout');
    sh(remote.root, 'clone', '-q', remote.bare, src);
    const store = tempDir();
    writeFiles(store, { 'node_modules/dep/index.js': 'dep\n' });
    symlinkSync(join(store, 'node_modules'), join(src, 'node_modules'));
    const wt = await createWorktree({
      repoDir: src,
      baseRef: 'main',
      branch: 'proofpr/9-s',
      worktreesDir: tempDir(),
      runId: 's',
      linkDirs: ['node_modules'],
    });
    expect(wt.linked.map((l) => l.name)).toEqual(['node_modules']);
    expect(readlinkSync(join(wt.path, 'node_modules'))).toBe(realpathSync(join(store, 'node_modules')));
    expect(readFileSync(join(wt.path, 'node_modules/dep/index.js'), 'utf8')).toBe('dep\n');
    await wt.remove();
  });

  it('createWorktree - linkDirs links nothing from a bare mirror and refuses names that are not top-level folders', async () => {
    const { dir, worktreesDir } = await setup();
    const wt = await createWorktree({
      repoDir: dir,
      baseRef: 'main',
      branch: 'proofpr/10-x',
      worktreesDir,
      runId: 'r',
      linkDirs: ['node_modules'],
    });
    expect(wt.linked).toEqual([]);
    await wt.remove();
    await expect(
      createWorktree({ repoDir: dir, baseRef: 'main', branch: 'proofpr/10-x', worktreesDir, runId: 's', linkDirs: ['../up'] }),
    ).rejects.toThrow(/linkDirs entries must be top-level folder names/);
  });
});
