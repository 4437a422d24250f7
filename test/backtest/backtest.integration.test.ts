import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { backtestCommand } from '../../src/hosts/cli/backtest-command.js';
import type { BacktestReport } from '../../src/backtest/types.js';
import { config, fixtureHistory, math, nodeTest, pkg } from './fixture-history.js';

/** A custom test script: exits 1 on a failed check, prints no runner's summary (nothing proofpr can count). */
const customRunner = (checks: ReadonlyArray<[string, string]>): string =>
  [
    "import { add, sub, mul } from '../src/math.js';",
    'let failed = 0;',
    'const check = (name, ok) => { if (!ok) { failed++; console.log(`FAIL ${name}`); } };',
    ...checks.map(([n, e]) => `check('${n}', ${e});`),
    'process.exit(failed ? 1 : 0);',
    '',
  ].join('\n');

/**
 * The history, oldest first: a custom test script era (one fix in it: proofpr cannot count those tests),
 * the move to node:test (changes package.json: not a candidate), a fix it verifies, and a code-and-test
 * commit whose test change already passes on its parent (passed over).
 */
function history() {
  return fixtureHistory([
    {
      message: 'initial',
      files: {
        '.github/proofpr.yml': config('node test/run.js'),
        'package.json': pkg('node test/run.js'),
        'src/math.js': math('a - b', 'a * b + 1'),
        'test/run.js': customRunner([['sub', 'sub(3, 1) === 2']]),
      },
    },
    {
      message: 'fix mul: it added one',
      files: {
        'src/math.js': math('a - b', 'a * b'),
        'test/run.js': customRunner([
          ['sub', 'sub(3, 1) === 2'],
          ['mul', 'mul(2, 3) === 6'],
        ]),
      },
    },
    {
      message: 'tests: move to node:test',
      files: {
        '.github/proofpr.yml': config('node --test'),
        'package.json': pkg('node --test'),
        'test/run.js': null,
        'test/math.test.js': nodeTest([
          ['sub', 'sub(3, 1) === 2'],
          ['mul', 'mul(2, 3) === 6'],
        ]),
      },
    },
    {
      message: 'fix add: it subtracted',
      files: {
        'src/math.js': math('a + b', 'a * b'),
        'test/add.test.js': nodeTest([
          ['add', 'add(2, 2) === 4'],
          ['add negative', 'add(-1, 1) === 0'],
        ]),
      },
    },
    {
      message: 'sub: document it and test zero',
      files: {
        'src/math.js': `// sub: a minus b\n${math('a + b', 'a * b')}`,
        'test/sub.test.js': nodeTest([['sub zero', 'sub(0, 0) === 0']]),
      },
    },
  ]);
}

describe('proofpr backtest (fixture history, replay model, the built CLI as each pass)', () => {
  const made = history();

  it('backtest - verifies the fix, refuses its test change alone, names why the custom-script fix cannot be verified, and writes backtest.json', async () => {
    const out = join(made.work, 'out');
    let stdout = '';
    let stderr = '';
    const code = await backtestCommand(
      { repo: made.repo, last: '5', out, json: true },
      {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, PROOFPR_HOME: join(made.work, 'home') },
        stdout: (s) => (stdout += s),
        stderr: (s) => (stderr += s),
      },
    );
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'backtest.json'), 'utf8')) as BacktestReport;
    const [, fixMul, , fixAdd, docSub] = made.ids;
    expect(report.cases.map((c) => c.commit)).toEqual([fixAdd, fixMul]);

    const add = report.cases[0]!;
    expect(add.fix.verdict).toBe('verified');
    expect(add.testOnly.verdict).toBe('unverified');
    expect(add.testOnly.blocked).toBeUndefined();
    expect(add.fix.counts?.total).toBe(add.runnerCount);
    expect(add.runnerCount).toBe(4);
    expect(existsSync(join(add.fix.runDir, 'evidence.json'))).toBe(true);

    const mul = report.cases[1]!;
    expect(mul.fix.verdict).toBe('unverified');
    expect(mul.fix.blocked?.what).toMatch(/count|report|not ready/i);
    expect(mul.fix.blocked?.fix).toMatch(/test\.report|test\.command/);
    expect(mul.runnerCount).toBeNull();

    expect(report.skipped.find((s) => s.commit === docSub)?.why).toMatch(/passes on the parent/);
    expect(report.skipped.find((s) => s.subject === 'tests: move to node:test')?.why).toMatch(/package\.json/);
    expect(report.summary).toMatchObject({ cases: 2, fixVerified: 1, testOnlyUnverified: 2, countsEqual: 1 });
    expect(report.estimate.usdPerRun).toBeGreaterThan(0);

    expect(stdout).toContain('| commit | subject | fix | test only |');
    expect(stdout).toMatch(/verified fixes: 1\/2 \(50%\)/);
    expect(stdout).toContain(`${mul.commit.slice(0, 7)} fix:`);
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toMatchObject({ summary: { cases: 2 } });
    expect(stderr).toContain('passed over');
  }, 600_000);

  it('backtest - bad input names the flag: --last out of range, --repo not a git repository', async () => {
    await expect(backtestCommand({ repo: made.repo, last: '0' })).rejects.toThrow(/--last must be a whole number/);
    await expect(backtestCommand({ repo: made.work, last: '1' })).rejects.toThrow(/--repo .* is not a git repository/);
  });
});
