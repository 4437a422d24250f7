import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { bash, DONE as done, edit, read } from '../kit/e2e-script.js';
import { runIssue, tempRepo, type Files } from './helpers.js';

/**
 * The not-run list is computed from the last run of each check after the last edit, and an edit made by a
 * command counts like a Write: a lint check that passed before a `sed -i` is not "ran and passed" on the
 * final tree.
 */
const FILES: Files = {
  'package.json': JSON.stringify({ name: 'shop', private: true, scripts: { test: 'node --test', lint: 'node lint.js' } }, null, 2),
  'lint.js': "console.log('lint ok');\n",
  'src/price.js': 'exports.total = (items) => items.reduce((s, i) => s + i.price, 0);\n',
  'test/price.test.js':
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { total } = require('../src/price');\ntest('total multiplies by qty', () => assert.equal(total([{ price: 2, qty: 3 }]), 6));\n",
};
const YAML = 'test:\n  command: node --test\npermissions:\n  allow: ["Bash(node --test:*)", "Bash(npm run lint:*)", "Bash(sed -i:*)"]\n';
const ISSUE = { number: 4, title: 'total() ignores qty', body: 'total([{ price: 2, qty: 3 }]) is 2, expected 6' };

async function play(steps: Parameters<typeof runIssue>[1]['script']) {
  const repo = tempRepo({ files: FILES, prefix: 'proofpr-e2e-notrun-' });
  const runId = `n${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  return (await runIssue(repo, { issue: ISSUE, branch: 'proofpr/4-total', config: parseRepoConfig(YAML), script: steps, runId })).res;
}

const fix = edit('src/price.js', 's + i.price, 0', 's + i.price * (i.qty ?? 1), 0');

describe('the not-run list reads edits made by commands', () => {
  it('not-run - lint passed, then a sed -i edited the source: lint is listed as not run on the final tree', async () => {
    const res = await play([
      read('src/price.js'),
      fix,
      bash('npm run lint'),
      bash("sed -i 's/^exports/\\/\\/ total\\nexports/' src/price.js"),
      bash('node --test'),
      done,
    ]);
    expect(res.evidence.verdict).toBe('verified');
    expect(res.evidence.notRun?.find((n) => n.check === 'npm run lint')).toMatchObject({ state: 'stale' });
    const md = readFileSync(join(res.runDir, 'summary.md'), 'utf8');
    expect(md).not.toContain('Every other check of the repository ran');
  });

  it('not-run - lint passed after the last edit: ran and passed, not listed', async () => {
    const res = await play([read('src/price.js'), fix, bash('node --test'), bash('npm run lint'), done]);
    expect(res.evidence.verdict).toBe('verified');
    expect(res.evidence.notRun?.find((n) => n.check === 'npm run lint')).toBeUndefined();
  });
});
