import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { treeHash } from '../../src/workspace/tree-hash.js';
import { tempDir } from '../kit/temp.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd, encoding: 'utf8' }).trim();

describe('tree hash and racy git', () => {
  it('tree hash - sees a same-size edit made in the same second as the last index write', async () => {
    const dir = tempDir('proofpr-racy-');
    git(dir, 'init', '-q');
    writeFileSync(join(dir, 'a.txt'), 'aaaa\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'one');
    const before = git(dir, 'rev-parse', 'HEAD^{tree}');
    writeFileSync(join(dir, 'a.txt'), 'bbbb\n'); // same size, likely the same second as the index write
    await new Promise((r) => setTimeout(r, 1100));
    const after = await treeHash(dir);
    expect(after).not.toBe(before);
  });
});
