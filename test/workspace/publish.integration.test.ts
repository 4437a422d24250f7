import { describe, it, expect } from '@jest/globals';
import { mkdirSync, writeFileSync, unlinkSync } from 'node:fs';
import { filesChanged } from '../../src/workspace/diff-stat.js';
import { join } from 'node:path';
import { TreeMismatchError } from '../../src/workspace/errors.js';
import { commitWork, wipCommit } from '../../src/workspace/publish.js';
import { treeHash } from '../../src/workspace/tree-hash.js';
import { sh } from './git-fixtures.js';
import { BOT as identity, useCheckouts } from '../kit/walls-checkout.js';

const checkout = useCheckouts({ 'README.md': '# r\n', '.gitignore': 'dist/\n' }, 'proofpr/9-t');
const worktree = async () => (await checkout()).wt;

describe('commitWork', () => {
  it('commitWork - commits exactly the tested tree with the bot identity and a Co-authored-by trailer', async () => {
    const w = await worktree();
    writeFileSync(join(w.path, 'fix.txt'), 'fixed\n');
    writeFileSync(join(w.path, 'README.md'), '# r2\n');
    const tested = await treeHash(w.path);
    const r = await commitWork({
      worktree: w.path,
      message: 'Fix the thing (#9)',
      identity,
      coAuthor: 'Octo Cat <octo@example.test>',
      expectedTreeHash: tested,
    });
    if ('nothing' in r) throw new Error('expected a commit');
    expect(r.tree).toBe(tested);
    expect(sh(w.path, 'rev-parse', 'HEAD^{tree}')).toBe(tested);
    expect(sh(w.path, 'rev-parse', 'HEAD')).toBe(r.sha);
    expect(sh(w.path, 'log', '-1', '--format=%an <%ae>|%cn|%s|%(trailers:key=Co-authored-by,valueonly)')).toBe(
      'proofpr[bot] <bot@example.test>|proofpr[bot]|Fix the thing (#9)|Octo Cat <octo@example.test>',
    );
    expect(sh(w.path, 'status', '--porcelain')).toBe('');
  });

  it('commitWork - refuses with TreeMismatchError when a file changed after the tested run, committing nothing', async () => {
    const w = await worktree();
    writeFileSync(join(w.path, 'fix.txt'), 'fixed\n');
    const tested = await treeHash(w.path);
    writeFileSync(join(w.path, 'fix.txt'), 'edited after the tests\n');
    const before = sh(w.path, 'rev-parse', 'HEAD');
    const err = await commitWork({ worktree: w.path, message: 'x', identity, expectedTreeHash: tested }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TreeMismatchError);
    expect((err as Error).message).toMatch(/the tree being committed differs from the tested tree/);
    expect(sh(w.path, 'rev-parse', 'HEAD')).toBe(before);
    expect(sh(w.path, 'diff', '--cached', '--name-only')).toBe('');
  });

  it('commitWork - returns nothing when the worktree has no changes (ignored files do not count)', async () => {
    const w = await worktree();
    writeFileSync(join(w.path, 'tmp.txt'), 'x\n');
    unlinkSync(join(w.path, 'tmp.txt'));
    mkdirSync(join(w.path, 'dist'));
    writeFileSync(join(w.path, 'dist/out.js'), 'built\n');
    expect(await commitWork({ worktree: w.path, message: 'x', identity })).toEqual({ nothing: true });
    expect(await wipCommit({ worktree: w.path, message: 'x', identity })).toEqual({ nothing: true });
  });

  it('wipCommit - commits unverified work with the WIP prefix and no tree check', async () => {
    const { wt: w, clone } = await checkout();
    writeFileSync(join(w.path, 'half.txt'), 'half done\n');
    const r = await wipCommit({ worktree: w.path, message: 'aborted: budget spent', identity });
    expect('sha' in r).toBe(true);
    expect(sh(w.path, 'log', '-1', '--format=%s')).toBe('WIP (unverified): aborted: budget spent');
    expect(sh(clone, 'show', 'proofpr/9-t:half.txt')).toBe('half done');
  });

  it('commitWork - names the bad field when the co-author is not "Name <email>"', async () => {
    const w = await worktree();
    await expect(commitWork({ worktree: w.path, message: 'x', identity, coAuthor: 'evil\nSigned-off-by: x' })).rejects.toThrow(/coAuthor/);
  });

  it('treeHash - exclude leaves files the test command writes out of the hash and the commit', async () => {
    const w = await worktree();
    writeFileSync(join(w.path, 'fix.txt'), 'fixed\n');
    const exclude = ['reports/junit.xml', './coverage/', `${w.path}/README.md`, '../outside.txt', 'dist/out.js'];
    const tested = await treeHash(w.path, { exclude, gitDir: w.gitDir });
    mkdirSync(join(w.path, 'reports'));
    writeFileSync(join(w.path, 'reports/junit.xml'), '<testsuites tests="1"/>\n');
    mkdirSync(join(w.path, 'coverage'));
    writeFileSync(join(w.path, 'coverage/lcov.info'), 'TN:\n');
    writeFileSync(join(w.path, 'README.md'), '# rewritten by the test run\n');
    mkdirSync(join(w.path, 'dist'));
    writeFileSync(join(w.path, 'dist/out.js'), 'ignored anyway\n');
    expect(await treeHash(w.path, { exclude })).toBe(tested);
    expect(await treeHash(w.path)).not.toBe(tested);
    expect((await filesChanged(w.path, w.baseSha, { exclude })).map((f) => f.path)).toEqual(['fix.txt']);
    const r = await commitWork({ worktree: w.path, message: 'fix', identity, exclude, gitDir: w.gitDir, expectedTreeHash: tested });
    expect(r).toMatchObject({ tree: tested });
    expect(sh(w.path, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n').sort()).toEqual(['.gitignore', 'README.md', 'fix.txt']);
    expect(sh(w.path, 'show', 'HEAD:README.md')).toBe('# r');
  });
});
