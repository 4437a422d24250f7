import { symlinkSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { runBaseline } from '../../src/agent/verification/test-runs/baseline.js';
import { harnessRun, withExec } from '../kit/verify-harness.js';
import { makeRepo, write } from './git-repo.js';
import { JEST_MATH } from './observe/node-observe-kit.js';

describe('harnessTestRun and runBaseline - counts and ids from the runner only', () => {
  const NODE_TESTS = `import { test } from 'node:test';
import assert from 'node:assert';
import { add } from '../src/math.mjs';
test('adds', () => { assert.strictEqual(add(1, 2), 3); });
test('adds more', () => { assert.strictEqual(add(2, 2), 4); });
test('prints a fake summary', () => { console.log('# tests 50\\n# pass 50\\nok 49 - fake'); });
`;
  const MATH = { 'src/math.mjs': 'export const add = (a, b) => a + b;\n', 'test/math.test.mjs': NODE_TESTS };

  it('node --test in the sandbox: exact counts and ids; what the tests print is not counted', async () => {
    const { root } = makeRepo(MATH);
    const run = await harnessRun(root, 'node --test', 'auto');
    expect(run).toMatchObject({
      source: 'junit',
      runner: 'node-test',
      by: 'harness',
      kind: 'final',
      exitCode: 0,
      counts: { passed: 3, failed: 0, skipped: 0, total: 3 },
    });
    expect(run.tests?.map((t) => t.id).sort()).toEqual(['adds', 'adds more', 'prints a fake summary']);
  });

  it('a composite command is run as written: the runner inside it is counted from its report, a printed summary is not', async () => {
    const { root } = makeRepo(MATH);
    const run = await harnessRun(root, 'echo build && node --test && printf "# tests 9\\n# pass 9\\n"');
    expect(run).toMatchObject({ exitCode: 0, counts: { passed: 3, failed: 0, total: 3 }, runner: 'node-test' });
    expect(run.calls).toEqual([expect.objectContaining({ runner: 'node-test', counts: expect.objectContaining({ passed: 3 }) })]);
  });

  it('nothing any runner printed: unknown counts, and the note names the fix', async () => {
    const run = await harnessRun(makeRepo({ 'README.md': 'x\n' }).root, 'echo all good');
    expect(run.counts).toBeNull();
    expect(run.note).toContain("no test runner's output could be read");
    expect(run.note).toContain('test.report');
  });

  it('jest through an npm script: per-test ids from --json', async () => {
    const { root } = makeRepo({
      'package.json': JSON.stringify({ name: 'p', scripts: { test: 'jest --ci' } }),
      ...JEST_MATH,
    });
    symlinkSync(resolve('node_modules'), `${root}/node_modules`);
    const run = await harnessRun(root, 'npm test');
    expect(run).toMatchObject({ source: 'jest-json', runner: 'jest', counts: { passed: 1, failed: 1, total: 2 } });
    expect(run.tests).toEqual(expect.arrayContaining([{ id: 'math.test.js > is wrong', outcome: 'failed', file: 'math.test.js' }]));
  });

  it('runBaseline: a clean checkout of the base commit (an untracked file is not there), failing ids', async () => {
    const { root, baseSha } = makeRepo({
      'src/math.mjs': 'export const add = (a, b) => a - b;\n',
      'test/math.test.mjs':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../src/math.mjs';\ntest('adds', () => { assert.strictEqual(add(1, 2), 3); });\ntest('zero', () => { assert.strictEqual(add(0, 0), 0); });\n",
    });
    write(root, 'test/extra.test.mjs', "import { test } from 'node:test';\ntest('untracked', () => {});\n");
    const config = parseRepoConfig('test:\n  command: node --test\n');
    const b = await withExec(root, 'auto', (exec, scratchDir) => runBaseline({ root, baseSha, config, exec, scratchDir }));
    expect(b).toMatchObject({ countsKnown: true, executed: 2, failingIds: ['adds'], counts: { passed: 1, failed: 1 } });
    expect(b.run).toMatchObject({ kind: 'baseline', commit: baseSha });
    expect(b.tests.map((t) => t.id)).not.toContain('untracked');
  });
});
