import { describe, expect, it } from '@jest/globals';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { bash, DONE as done, edit, read } from '../kit/e2e-script.js';
import { runIssue, tempRepo, type Files } from './helpers.js';

/**
 * Red → green when the new tests come from test material, not a test file: a parametrised test reads its
 * cases from a fixture module (seen on a real repository: the upstream fix added two cases to
 * tests/fixtures/url.py). The reversion run (the base plus every change but the shipped code) must show
 * the added cases failing without the fix; a fixture edit with no fix is not verified.
 */
const FILES: Files = {
  'package.json': JSON.stringify({ name: 'price', private: true, main: 'src/price.js', scripts: { test: 'node --test' } }, null, 2),
  'src/price.js': 'exports.total = (items) => items.reduce((s, i) => s + i.price, 0);\n',
  'test/fixtures/cases.js': 'module.exports = [\n  { items: [{ price: 2 }], want: 2 },\n];\n',
  'test/price.test.js':
    "const test = require('node:test');\nconst assert = require('node:assert');\nconst { total } = require('../src/price');\nconst cases = require('./fixtures/cases');\nfor (const c of cases) test(`total ${JSON.stringify(c.items)}`, () => assert.equal(total(c.items), c.want));\n",
};
const YAML = 'test:\n  command: node --test\npermissions:\n  allow: ["Bash(node --test:*)"]\ngates:\n  max_stop_blocks: 1\n';
const ISSUE = { number: 5, title: 'total() ignores qty', body: 'total([{ price: 2, qty: 3 }]) is 2, expected 6' };

async function play(steps: Parameters<typeof runIssue>[1]['script']) {
  const repo = tempRepo({ files: FILES, prefix: 'proofpr-e2e-material-' });
  const runId = `m${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  return (await runIssue(repo, { issue: ISSUE, branch: 'proofpr/5-total', config: parseRepoConfig(YAML), script: steps, runId })).res;
}

const fix = edit('src/price.js', 's + i.price, 0', 's + i.price * (i.qty ?? 1), 0');
const addCase = edit(
  'test/fixtures/cases.js',
  '  { items: [{ price: 2 }], want: 2 },\n',
  '  { items: [{ price: 2 }], want: 2 },\n  { items: [{ price: 2, qty: 3 }], want: 6 },\n',
);
const run = bash('node --test');

describe('red → green from test material', () => {
  it('red-green - a case added to a fixture module with the fix: the reversion run shows it failing without the fix; verified', async () => {
    const res = await play([read('src/price.js'), fix, read('test/fixtures/cases.js'), addCase, run, done]);
    expect(`${res.evidence.verdict}: ${JSON.stringify(res.evidence.gates.filter((g) => !g.passed))}`).toMatch(/^verified/);
    expect(res.evidence.gates.find((g) => g.name === 'red-green')?.detail).toContain('test/fixtures/cases.js');
    expect(res.evidence.fix).toEqual({ files: ['src/price.js'], attributed: true });
  });

  it('red-green - the same case with a cosmetic source edit instead of the fix: the case fails in the final run; not verified', async () => {
    const cosmetic = edit('src/price.js', 'exports.total', '// totals\nexports.total');
    const res = await play([read('src/price.js'), cosmetic, read('test/fixtures/cases.js'), addCase, run, done, done]);
    expect(res.evidence.verdict).toBe('unverified');
  });
});
