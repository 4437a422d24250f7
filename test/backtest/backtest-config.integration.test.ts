import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backtestCommand } from '../../src/hosts/cli/backtest-command.js';
import type { BacktestReport } from '../../src/backtest/types.js';
import { config, fixtureHistory, math, nodeTest } from './fixture-history.js';

/** package.json with no test script and no .github/proofpr.yml: nothing to detect a test command from. */
const bare = `${JSON.stringify({ name: 'calc', private: true, type: 'module' }, null, 2)}\n`;

function history() {
  return fixtureHistory([
    {
      message: 'initial',
      files: { 'package.json': bare, 'src/math.js': math('a - b', 'a * b'), 'test/sub.test.js': nodeTest([['sub', 'sub(3, 1) === 2']]) },
    },
    {
      message: 'fix add: it subtracted',
      // The new test also reads a variable the config's `env` lists (as a CA bundle or a proxy would be).
      files: {
        'src/math.js': math('a + b', 'a * b'),
        'test/add.test.js': nodeTest([['add', "add(2, 2) === 4 && process.env.CALC_FIXTURE_MODE === 'on'"]]),
      },
    },
  ]);
}

describe('proofpr backtest --config (the proofpr.yml you would install with, for commits that have none)', () => {
  const made = history();
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, PROOFPR_HOME: join(made.work, 'home'), CALC_FIXTURE_MODE: 'on' };
  const quiet = { env, stdout: () => {}, stderr: () => {} };

  it('backtest --config - without it the fix is passed over naming test.command; with it (and its env names passed on) the fix is verified and its test change refused', async () => {
    const plain = join(made.work, 'plain');
    expect(await backtestCommand({ repo: made.repo, last: '1', out: plain }, quiet)).toBe(0);
    const before = JSON.parse(readFileSync(join(plain, 'backtest.json'), 'utf8')) as BacktestReport;
    expect(before.cases).toEqual([]);
    expect(before.skipped.find((s) => s.commit === made.ids[1])?.why).toMatch(/test\.command/);

    const file = join(made.work, 'proofpr.yml');
    writeFileSync(file, `${config('node --test')}env: [CALC_FIXTURE_MODE]\n`);
    const out = join(made.work, 'with-config');
    expect(await backtestCommand({ repo: made.repo, last: '1', out, config: file }, quiet)).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'backtest.json'), 'utf8')) as BacktestReport;
    expect(report.cases.map((c) => c.commit)).toEqual([made.ids[1]]);
    const [c] = report.cases;
    expect(c).toMatchObject({ testCommand: 'node --test', runnerCount: 2 });
    expect(c?.fix.verdict).toBe('verified');
    expect(c?.fix.counts?.total).toBe(2);
    expect(c?.testOnly.verdict).toBe('unverified');
  }, 600_000);

  it('backtest --config - a missing file or a bad key is refused before anything runs, naming the flag or the key', async () => {
    await expect(backtestCommand({ repo: made.repo, config: join(made.work, 'nope.yml') }, quiet)).rejects.toThrow(
      /--config .*no such file/,
    );
    const bad = join(made.work, 'bad.yml');
    writeFileSync(bad, 'test:\n  comand: npm test\n');
    await expect(backtestCommand({ repo: made.repo, config: bad }, quiet)).rejects.toThrow(/comand/);
  });
});
