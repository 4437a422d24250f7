/**
 * changedHunks: the lines a commit range changes, read from git (review follow-ups map a thread's lines
 * through it): replaced, added-only and removed lines, a new and a deleted file, a path git quotes.
 */
import { describe, expect, it } from '@jest/globals';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { changedHunks } from '../../src/workspace/changed-hunks.js';
import { commitAll, git, writeFiles } from '../kit/e2e-repo.js';
import { tempDir } from '../kit/temp.js';

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('changedHunks', () => {
  it('reads each hunk with its old range and its lines, per file', async () => {
    const dir = tempDir('proofpr-hunks-');
    writeFiles(dir, { 'a.txt': lines(10), 'gone.txt': 'x\n', 'café.txt': 'a\n' });
    commitAll(dir);
    const from = git(dir, ['rev-parse', 'HEAD']).trim();
    const a = lines(10).replace('line 3\n', 'line three\n').replace('line 6\n', 'line 6\nnew after 6\n').replace('line 9\n', '');
    writeFiles(dir, { 'a.txt': a, 'new.txt': 'n1\nn2\n', 'café.txt': 'b\n' });
    rmSync(join(dir, 'gone.txt'));
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', 'change']);
    const to = git(dir, ['rev-parse', 'HEAD']).trim();
    const hunks = await changedHunks({ repoDir: dir, from, to });
    expect(hunks).toEqual([
      { path: 'a.txt', oldStart: 3, oldLines: 1, newStart: 3, newLines: 1, lines: ['-line 3', '+line three'] },
      { path: 'a.txt', oldStart: 6, oldLines: 0, newStart: 7, newLines: 1, lines: ['+new after 6'] },
      { path: 'a.txt', oldStart: 9, oldLines: 1, newStart: 9, newLines: 0, lines: ['-line 9'] },
      { path: 'café.txt', oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '+b'] },
      { path: 'gone.txt', oldStart: 1, oldLines: 1, newStart: 0, newLines: 0, lines: ['-x'] },
      { path: 'new.txt', oldStart: 0, oldLines: 0, newStart: 1, newLines: 2, lines: ['+n1', '+n2'] },
    ]);
  });
});
