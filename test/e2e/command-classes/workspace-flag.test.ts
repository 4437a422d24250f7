/** `npm test -w packages/calc`: the workspace's own script runs as written, counted from node:test's report. */
import { describe, expect, it, jest } from '@jest/globals';
import { fixSteps, makeRepo, runOn, runsOf } from './kit.js';

jest.setTimeout(120_000);

const FILES: Record<string, string> = {
  'package.json': `${JSON.stringify({ name: 'root', private: true, workspaces: ['packages/*'] }, null, 2)}\n`,
  'packages/calc/package.json': `${JSON.stringify({ name: 'calc', version: '1.0.0', scripts: { test: 'node --test test/' } }, null, 2)}\n`,
  'packages/calc/lib/inc.js': 'exports.inc = (n) => n + 2;\n',
  'packages/calc/test/inc.test.js':
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { inc } = require('../lib/inc.js');\ntest('inc', () => assert.strictEqual(inc(1), 2));\ntest('inc zero', () => assert.strictEqual(inc(0), 1));\n",
};

describe('a workspace flag', () => {
  it('npm test -w packages/calc: verified, both tests of the workspace counted', async () => {
    const repo = makeRepo(FILES);
    const config = 'test:\n  command: npm test -w packages/calc\npermissions:\n  allow: ["Bash(npm test:*)"]\n';
    const { res } = await runOn(repo, fixSteps('packages/calc/lib/inc.js', 'n + 2', 'n + 1', 'npm test -w packages/calc'), config);
    expect(res.evidence.verdict).toBe('verified');
    const { final } = runsOf(res);
    expect(final?.counts).toMatchObject({ passed: 2, failed: 0, total: 2 });
    expect(final?.calls?.map((c) => [c.runner, c.source])).toEqual([['node-test', 'junit']]);
  });
});
