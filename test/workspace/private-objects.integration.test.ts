import { describe, it, expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { privateStoreFor } from '../../src/workspace/private-objects.js';
import { join } from 'node:path';
import { commitWork, wipCommit } from '../../src/workspace/publish.js';
import { snapshotCommit } from '../../src/workspace/snapshot-commit.js';
import { treeHash } from '../../src/workspace/tree-hash.js';
import { filesChanged } from '../../src/workspace/diff-stat.js';
import type { Worktree } from '../../src/workspace/worktree.js';
import { sh } from './git-fixtures.js';
import { BOT as identity, useCheckouts } from '../kit/walls-checkout.js';

const SECRET = 'API_KEY=sk-live-canary-5f1e0c7d9a';
const checkout = useCheckouts({ 'README.md': '# r\n', '.gitignore': '.env\n' }, 'proofpr/9-t');
/** The clone the current test's worktree was made from (its object store is the shared one). */
let clone: string;

async function worktree(): Promise<Worktree> {
  const made = await checkout();
  clone = made.clone;
  return made.wt;
}

/** Every object of the repository's store whose content holds `needle` (loose and packed alike). */
function objectsWith(repo: string, needle: string): string[] {
  const all = execFileSync('git', ['cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype)'], {
    cwd: repo,
    encoding: 'utf8',
  });
  const blobs = all
    .split('\n')
    .filter((l) => l.endsWith(' blob'))
    .map((l) => l.split(' ')[0] ?? '');
  return blobs.filter((id) => execFileSync('git', ['cat-file', 'blob', id], { cwd: repo, encoding: 'utf8' }).includes(needle));
}

describe('the harness keeps worktree content out of the shared object store', () => {
  it('private-objects - tree hashes, diff stats and a refused commit store no blob of a .env the agent un-ignored', async () => {
    const w = await worktree();
    // The agent drops the ignore rule and writes a secret: every `git add -A` of the harness now sees it.
    writeFileSync(join(w.path, '.gitignore'), '');
    writeFileSync(join(w.path, '.env'), `${SECRET}\n`);
    writeFileSync(join(w.path, 'fix.txt'), 'fixed\n');
    await treeHash(w.path, { gitDir: w.gitDir });
    await filesChanged(w.path, w.baseSha, { gitDir: w.gitDir });
    // The base's ignore rules still ignore .env (commit-filter.ts): the commit leaves it out, names it, and keeps the fix.
    const c = await commitWork({ worktree: w.path, message: 'm', identity, gitDir: w.gitDir, protect: {} });
    expect('sha' in c && c.leftOut?.map((l) => l.path)).toEqual(['.env']);
    expect(objectsWith(clone, SECRET)).toEqual([]);
    // The private store lives as long as the worktree, and goes with it.
    const store = privateStoreFor('cat-file', w.gitDir, w.gitDir);
    expect(store && existsSync(store)).toBe(true);
    await w.remove();
    expect(existsSync(store ?? '')).toBe(false);
  });

  it('private-objects - an ignored .env is never stored, and what is committed is (in the shared store, reachable)', async () => {
    const w = await worktree();
    writeFileSync(join(w.path, '.env'), `${SECRET}\n`);
    writeFileSync(join(w.path, 'fix.txt'), 'fixed-canary-1\n');
    const tested = await treeHash(w.path, { gitDir: w.gitDir });
    const snap = await snapshotCommit({ worktree: w.path, message: 'm', identity, gitDir: w.gitDir });
    expect(snap.tree).toBe(tested);
    expect(sh(clone, 'cat-file', '-t', snap.sha)).toBe('commit');
    const r = await commitWork({ worktree: w.path, message: 'm', identity, gitDir: w.gitDir, expectedTreeHash: tested });
    if ('nothing' in r) throw new Error('expected a commit');
    expect(sh(clone, 'show', `${r.sha}:fix.txt`)).toBe('fixed-canary-1');
    expect(sh(clone, 'fsck', '--connectivity-only', '--no-dangling')).toBe('');
    expect(objectsWith(clone, SECRET)).toEqual([]);
  });

  it('private-objects - a blob over core.bigFileThreshold (packed by git add) still reaches the shared store when committed', async () => {
    const w = await worktree();
    sh(clone, 'config', 'core.bigFileThreshold', '1k');
    writeFileSync(join(w.path, 'big.txt'), 'big-canary\n'.repeat(500));
    const r = await commitWork({ worktree: w.path, message: 'm', identity, gitDir: w.gitDir });
    if ('nothing' in r) throw new Error('expected a commit');
    expect(sh(clone, 'cat-file', '-s', `${r.sha}:big.txt`)).toBe(String(11 * 500));
    expect(sh(clone, 'fsck', '--connectivity-only', '--no-dangling')).toBe('');
  });
});

describe('a WIP commit never fails because of a file', () => {
  it('wip - a file at a path git refuses (made behind the tools back) is left out and named; the rest is committed', async () => {
    const w = await worktree();
    mkdirSync(join(w.path, '.GIT'));
    writeFileSync(join(w.path, '.GIT', 'config'), '[core]\n');
    mkdirSync(join(w.path, 'a', '.git '), { recursive: true });
    writeFileSync(join(w.path, 'a', '.git ', 'x'), 'x\n');
    writeFileSync(join(w.path, 'fix.txt'), 'fixed\n');
    const r = await wipCommit({ worktree: w.path, message: 'm', identity, gitDir: w.gitDir, protect: {} });
    if ('nothing' in r) throw new Error('expected a commit');
    expect(sh(w.path, 'show', '--name-only', '--format=', 'HEAD')).toBe('fix.txt');
    expect(r.leftOut?.map((l) => l.path)).toEqual(['.GIT/config', 'a/.git /x']);
    expect(r.leftOut?.[0]?.why).toContain("git's own folder name");
  });

  it('wip - nothing else to commit: no commit, and the left-out file is still named', async () => {
    const w = await worktree();
    mkdirSync(join(w.path, '.git.'));
    writeFileSync(join(w.path, '.git.', 'hooks'), 'x\n');
    const r = await wipCommit({ worktree: w.path, message: 'm', identity, gitDir: w.gitDir, protect: {} });
    expect(r).toMatchObject({ nothing: true, leftOut: [{ path: '.git./hooks' }] });
  });
});
