import { describe, expect, it, jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import type { RunTaskResult } from '../../src/run/run-task-types.js';
import { bash, DONE as done, edit, read } from '../kit/e2e-script.js';
import { runIssue, tempRepo, type Files } from './helpers.js';

/**
 * Issue 38, "test identity by the runner": a fresh honest fix in a node-tap repository (a new top-level
 * `t.test(...)` block next to the fix) is verified, with the counts tap's own closing summary prints. Real
 * node-tap (this repository's devDependency, linked as a user's `npm ci` would leave it), the real
 * sandbox, a scripted model.
 * First try (js-calls.ts at 8ba34df): not verified, `assertions-kept` failed on the new block as "code added that
 * runs when the tests load". After: verified, 3 of 3 as tap's totals say (baseline 1 of 2).
 */

// node-tap takes several seconds a run here, and a verified run has six or more of them.
jest.setTimeout(400_000);

const ISSUE = { number: 8, title: 'add() subtracts', body: 'add(1, 2) is -1, expected 3' };

const TAP_FILES: Files = {
  'package.json': JSON.stringify({ name: 'adder', private: true, scripts: { test: 'tap --disable-coverage' } }, null, 2),
  '.gitignore': 'node_modules\n.tap/\n',
  'src/add.js': 'exports.add = (a, b) => a - b;\n',
  'test/add.test.js': [
    "const t = require('tap');",
    "const { add } = require('../src/add.js');",
    '',
    "t.test('adds', (t) => {",
    '  t.equal(add(1, 2), 3);',
    '  t.end();',
    '});',
    '',
    "t.test('adds nothing to zero', (t) => {",
    '  t.equal(add(0, 0), 0);',
    '  t.end();',
    '});',
    '',
  ].join('\n'),
};

const TAP_YAML = 'test:\n  command: npm test\npermissions:\n  allow: ["Bash(npm test:*)"]\n';

/** The closing totals node-tap prints (`# { total: 3, pass: 3 }`), from a run's saved output. */
function tapTotals(r: RunTaskResult, kind: string): Record<string, number> {
  const out = readFileSync(r.evidence.testRuns.find((t) => t.kind === kind)?.outputPath ?? '', 'utf8');
  const line = [...out.matchAll(/^# \{ (total: \d+.*) \}$/gm)].pop()?.[1] ?? '';
  return Object.fromEntries(line.split(', ').map((kv) => [kv.split(': ')[0] ?? '', Number(kv.split(': ')[1])]));
}

const verdictOf = (r: RunTaskResult): string =>
  `${r.evidence.verdict}: ${r.evidence.reason} ${JSON.stringify(r.evidence.gates.filter((g) => !g.passed))}`;

describe('test identity by the runner', () => {
  it('identity - node-tap: an honest fix with a new top-level t.test block is verified, counted as tap counts', async () => {
    const repo = tempRepo({ files: TAP_FILES, nodeModules: true, prefix: 'proofpr-e2e-identity-' });
    const { res: r } = await runIssue(repo, {
      issue: ISSUE,
      branch: 'proofpr/8-add',
      config: parseRepoConfig(TAP_YAML),
      script: [
        read('src/add.js'),
        edit('src/add.js', 'a - b', 'a + b'),
        read('test/add.test.js'),
        edit(
          'test/add.test.js',
          "t.test('adds nothing to zero'",
          "t.test('adds negative numbers', (t) => {\n  t.equal(add(-1, -2), -3);\n  t.end();\n});\n\nt.test('adds nothing to zero'",
        ),
        bash('npm test'),
        done,
      ],
    });
    expect(verdictOf(r)).toMatch(/^verified/);
    const assertions = r.evidence.gates.find((g) => g.name === 'assertions-kept');
    expect(assertions?.detail ?? '').not.toContain('runs when the tests load');
    const final = r.evidence.testRuns.find((t) => t.kind === 'final');
    const totals = tapTotals(r, 'final');
    if (totals.total !== 3)
      console.log(
        r.evidence.testRuns
          .map((t) => `${t.by} ${t.kind} ${JSON.stringify(t.counts)}\n${t.outputPath ? readFileSync(t.outputPath, 'utf8') : ''}`)
          .join('\n-----\n'),
      );
    // Three assertions, one a test: tap's totals count leaf points.
    expect(totals).toEqual({ total: 3, pass: 3 });
    expect(final?.counts).toMatchObject({ passed: 3, failed: 0, total: 3 });
    const baseline = r.evidence.testRuns.find((t) => t.kind === 'baseline');
    const baseTotals = tapTotals(r, 'baseline');
    expect(baseTotals).toEqual({ total: 2, pass: 1, fail: 1 });
    expect(baseline?.counts).toMatchObject({ passed: 1, failed: 1, total: 2 });
  });
});
