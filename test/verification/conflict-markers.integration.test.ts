/**
 * A stop with merge-conflict markers left in a changed file is refused (gate conflict-markers), on a real
 * repository: git's markers in an added or modified file fail it with path:line; a markdown underline of
 * `=======` or a lone `<<<<<<<` in a string does not.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { protectedChangesNow } from '../../src/agent/verification/gates/protected-changes.js';
import { conflictMarkers } from '../../src/agent/verification/gates/conflict-markers.js';
import { tempDir } from '../kit/temp.js';
import { git as gitIn } from '../tools/helpers/context.js';
import { writeFiles } from '../workspace/git-fixtures.js';

let root: string;
let base: string;
const git = (...args: string[]): string => gitIn(root, ...args).trim();
const gate = async () => (await protectedChangesNow(root, base)).find((g) => g.name === 'conflict-markers');

beforeEach(() => {
  root = tempDir('proofpr-conflict-');
  git('init', '-q');
  writeFiles(root, { 'src/a.js': 'module.exports = 1;\n', 'README.md': '# x\n' });
  git('add', '-A');
  git('commit', '-qm', 'base');
  base = git('rev-parse', 'HEAD');
});

describe('conflict markers', () => {
  it('markers left in a modified file: the gate fails naming the file and line', async () => {
    writeFiles(root, { 'src/a.js': '<<<<<<< HEAD\nmodule.exports = 1;\n=======\nmodule.exports = 2;\n>>>>>>> fix\n' });
    expect(await gate()).toEqual({
      name: 'conflict-markers',
      passed: false,
      detail: expect.stringMatching(/^merge-conflict markers are left in src\/a\.js:1: resolve each conflict/),
    });
  });

  it('in a new file too; resolved, the gate passes', async () => {
    writeFiles(root, { 'src/b.js': 'x\n<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n' });
    expect((await gate())?.detail).toContain('src/b.js:2');
    writeFiles(root, { 'src/b.js': 'x\na\n' });
    expect(await gate()).toMatchObject({ passed: true });
  });

  it('a setext underline or a marker-like string alone is no conflict', async () => {
    writeFiles(root, { 'README.md': '# x\n\nTitle\n=======\n', 'src/a.js': "const s = '<<<<<<< not a conflict';\n" });
    expect(await gate()).toMatchObject({ passed: true });
    expect(
      conflictMarkers([
        {
          path: 'd',
          status: 'deleted',
          removed: [],
          added: [
            { line: 1, text: '<<<<<<< a' },
            { line: 2, text: '>>>>>>> b' },
          ],
        },
      ]),
    ).toEqual([]);
  });
});
