/**
 * The maintainer's `npm test` as written: a pretest script, a composite script (build step, then two
 * runner calls), a coverage wrapper (c8) around one of them, and a suite whose code under test parses
 * process.argv (it must see the plain argv under the harness). Counts equal the runners' own, summed
 * over the calls, each call's source in the evidence.
 */
import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import type { RunTaskResult } from '../../../src/run/run-task-types.js';
import { fixSteps, makeRepo, runOn, runsOf } from './kit.js';

jest.setTimeout(120_000);

const NODE_TEST = (body: string) =>
  `'use strict';\nconst test = require('node:test');\nconst assert = require('node:assert/strict');\n${body}`;
const FILES: Record<string, string> = {
  '.gitignore': 'node_modules\ncoverage/\nbuild.txt\n',
  'package.json': `${JSON.stringify({ name: 'scripts', version: '1.0.0', scripts: { pretest: 'node scripts/pretest.js', test: 'node scripts/build.js && c8 --reporter=text-summary node --test test/unit/ && node --test test/cli/' } }, null, 2)}\n`,
  'scripts/pretest.js': "console.log('pretest ran');\n",
  'scripts/build.js': "require('fs').writeFileSync('build.txt', 'built');\n",
  'lib/sum.js': "'use strict';\nexports.sum = (xs) => xs.reduce((a, b) => a + b, 1);\n",
  'lib/cli.js': "'use strict';\nexports.flags = () => process.argv.slice(2).filter((a) => a.startsWith('-'));\n",
  'test/unit/sum.test.js': NODE_TEST(
    "const { sum } = require('../../lib/sum.js');\ntest('sums', () => assert.equal(sum([1, 2]), 3));\ntest('empty is zero', () => assert.equal(sum([]), 0));\ntest('one', () => assert.equal(sum([4]), 4));\n",
  ),
  'test/cli/cli.test.js': NODE_TEST(
    "const { flags } = require('../../lib/cli.js');\ntest('the code under test sees no flags in argv', () => assert.deepEqual(flags(), []));\ntest('argv is node and this file', () => assert.equal(process.argv.length, 2));\n",
  ),
};
const CONFIG = 'test:\n  command: npm test\npermissions:\n  allow: ["Bash(npm test:*)"]\n';

describe('command classes through a full run: pretest, composite script, coverage wrapper, process.argv', () => {
  let res: RunTaskResult;
  let plainOutput = '';
  beforeAll(async () => {
    const repo = makeRepo(FILES, true);
    try {
      execFileSync('npm', ['test'], { cwd: repo.dir, encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      plainOutput = String((e as { stdout?: string }).stdout ?? '');
    }
    ({ res } = await runOn(repo, fixSteps('lib/sum.js', 'b, 1)', 'b, 0)', 'npm test'), CONFIG));
  });

  it('the plain command fails on the base (the bug), with node:test’s own summary', () => {
    expect(plainOutput).toContain('pretest ran');
    expect(plainOutput).toMatch(/tests 3\b/);
  });

  it('verified; the final run counts both runner calls (3 under c8 + 2), each from its own report', () => {
    expect(res.evidence.verdict).toBe('verified');
    const { final } = runsOf(res);
    expect(final?.counts).toMatchObject({ passed: 5, failed: 0, total: 5 });
    expect(final?.calls?.map((c) => [c.runner, c.source, c.counts.total])).toEqual([
      ['node-test', 'junit', 3],
      ['node-test', 'junit', 2],
    ]);
  });

  it('the suite that parses process.argv passed under the harness: it saw the plain argv', () => {
    const ids = (runsOf(res).final?.tests ?? []).filter((t) => t.outcome === 'passed').map((t) => t.id);
    expect(ids).toEqual(expect.arrayContaining(['the code under test sees no flags in argv', 'argv is node and this file']));
  });

  it('the agent’s npm test run is observed the same way', () => {
    expect(runsOf(res).agent?.calls?.map((c) => c.runner)).toEqual(['node-test', 'node-test']);
  });
});
