import { describe, it, expect, afterEach } from '@jest/globals';
import { writeFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { diffText, filesChanged } from '../../src/workspace/diff-stat.js';
import { commitWork } from '../../src/workspace/publish.js';
import { createWorktree, type Worktree } from '../../src/workspace/worktree.js';
import { makeRemote, sh, tempDir, type Remote } from './git-fixtures.js';

let remote: Remote;
let wt: Worktree;
afterEach(async () => {
  await wt?.remove();
  remote?.cleanup();
});

describe('diff-stat', () => {
  it('filesChanged - counts committed, uncommitted and untracked changes against the base, not the index', async () => {
    remote = makeRemote({ 'a.txt': '1\n2\n3\n', 'b.txt': 'b\n', 'bin.dat': 'x' });
    wt = await createWorktree({ repoDir: remote.bare, baseRef: 'main', branch: 'proofpr/1-d', worktreesDir: tempDir(), runId: 'r' });
    writeFileSync(join(wt.path, 'a.txt'), '1\nTWO\n3\n4\n');
    await commitWork({ worktree: wt.path, message: 'c', identity: { name: 'b', email: 'b@example.test' } });
    unlinkSync(join(wt.path, 'b.txt'));
    writeFileSync(join(wt.path, 'new.txt'), 'n\n');
    writeFileSync(join(wt.path, 'bin.dat'), Buffer.from([0, 1, 2, 0]));
    const files = await filesChanged(wt.path, wt.baseSha);
    expect(files).toEqual([
      { path: 'a.txt', added: 2, removed: 1 },
      { path: 'b.txt', added: 0, removed: 1 },
      { path: 'bin.dat', added: 0, removed: 0, binary: true },
      { path: 'new.txt', added: 1, removed: 0 },
    ]);
    expect(sh(wt.path, 'diff', '--cached', '--name-only')).toBe('');
    const text = await diffText(wt.path, wt.baseSha, 100_000);
    expect(text).toContain('+TWO');
    expect(text).toContain('new file mode');
    const cut = await diffText(wt.path, wt.baseSha, 40);
    expect(cut).toMatch(/\[diff truncated: 40 of \d+ bytes shown\]\n$/);
  });
});
