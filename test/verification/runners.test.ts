import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import type { TestCounts } from '../../src/agent/events.js';
import { RUNNERS, runnerNamed } from '../../src/agent/verification/test-results/runners/index.js';

const FIX = 'test/fixtures/runner-output';
const parse = (runner: string, dir: string, file: string) => {
  const r = runnerNamed(runner);
  if (!r) throw new Error(`no runner ${runner}`);
  const rep = r.parse(readFileSync(join(FIX, dir, file), 'utf8'), '/project');
  if (!rep) throw new Error(`${runner} could not parse ${dir}/${file}`);
  return rep;
};
const ids = (rep: ReturnType<typeof parse>) => Object.fromEntries(rep.tests.map((t) => [t.id, t.outcome]));

/** A runner's folder under FIX, where it is not the runner's name. */
const DIR: Record<string, string> = { 'node-tap': 'tap' };
/** What the capture's tests give (one passes, one fails on purpose, one is skipped, one at the top level passes). */
const ONE_EACH = { passed: 2, failed: 1, skipped: 1, total: 4 };
/** A filtered run that counted no test. */
const NONE = { total: 0 };
/** A filtered run that counted all `n` tests as skipped. */
const allSkipped = (n: number) => ({ passed: 0, failed: 0, skipped: n, total: n });
/** The one test that fails on purpose. */
const failing = (id: string) => ({ [id]: 'failed' });

// Real outputs, captured once by test/fixtures/runner-output/capture.sh (versions in the README there).
describe('runner reports - counted per test from the real reports', () => {
  // Each row: the runner, the ending of its report.<ext> and filtered.<ext> (the run whose filter matched
  // no test), the report's counts, tests it holds with their outcomes (every test when all are listed), the
  // filtered run's counts, and what a test printed that looks like a result, which no test id may match.
  it.each<[string, string, string, TestCounts, Record<string, string>, Partial<TestCounts>, RegExp?]>([
    [
      // The test logs "Tests: 99 passed" to stdout: not in the report, not counted.
      'jest --json: per assertion result, file relative to the run',
      'jest',
      'json',
      ONE_EACH,
      {
        'test/math.test.js > add adds two numbers': 'passed',
        'test/math.test.js > add is wrong on purpose': 'failed',
        'test/math.test.js > add is skipped': 'skipped',
        'test/math.test.js > top level works': 'passed',
      },
      allSkipped(4),
    ],
    ['vitest json reporter', 'vitest', 'json', ONE_EACH, failing('test/math.test.mjs > add is wrong on purpose'), allSkipped(4)],
    [
      'mocha json reporter (--reporter-option output=)',
      'mocha',
      'json',
      ONE_EACH,
      failing('test/math.spec.js > add is wrong on purpose'),
      NONE,
    ],
    [
      'node --test junit reporter: describe path + name, skip and todo skipped, the printed "# pass 99" ignored',
      'node-test',
      'xml',
      { passed: 2, failed: 1, skipped: 2, total: 5 },
      {
        'add > adds two numbers': 'passed',
        'add > is wrong on purpose': 'failed',
        'add > is todo': 'skipped',
        'top level works': 'passed',
      },
      allSkipped(5),
    ],
    [
      'ava --tap: every test counted, todo skipped, what a test logs is not a result',
      'ava',
      'tap',
      { passed: 2, failed: 1, skipped: 2, total: 5 },
      {},
      NONE,
      /^fake$/,
    ],
    [
      "node-tap: counted as tap's own totals (`# { total: 6, pass: 4, fail: 1, skip: 1 }`: every leaf point), ids per test (leaf subtest)",
      'node-tap',
      'tap',
      { passed: 4, failed: 1, skipped: 1, total: 6 },
      {
        'test/math.test.js > add > adds two numbers': 'passed',
        'test/math.test.js > add > is wrong on purpose': 'failed',
        'test/math.test.js > add > is skipped': 'skipped',
        'test/math.test.js > top level works': 'passed',
        'test/other.test.js > other file': 'passed',
      },
      allSkipped(3),
    ],
    [
      "jasmine through the harness's reporter: excluded specs did not run",
      'jasmine',
      'json',
      ONE_EACH,
      failing('spec/math.spec.js > add is wrong on purpose'),
      NONE,
    ],
    ['playwright test json reporter', 'playwright', 'json', ONE_EACH, failing('math.spec.js > add > is wrong on purpose'), NONE],
    [
      'pytest --junitxml: file from the module path, class::name',
      'pytest',
      'xml',
      ONE_EACH,
      { 'tests/test_calc.py > TestAdd::test_wrong': 'failed', 'tests/test_calc.py > test_skipped': 'skipped' },
      NONE,
    ],
    [
      'unittest -v result lines (stderr); the printed "Ran 40 tests" is not read',
      'unittest',
      'txt',
      ONE_EACH,
      failing('tests/test_calc.py > TestAdd::test_wrong'),
      NONE,
    ],
    [
      // TestTable and its two cases are three tests, as `go test -v` prints three `--- PASS` lines.
      'go test -json: every test and subtest as go test -v lists them, and a "--- PASS: Fake" printed by a test is no test',
      'go',
      'json',
      { passed: 4, failed: 1, skipped: 1, total: 6 },
      { 'example.com/m/calc > TestTable/case1': 'passed', 'example.com/m/calc > TestWrong': 'failed' },
      NONE,
      /Fake/,
    ],
    [
      'cargo test libtest lines per target; "test fake ... ok" printed by a test is not read',
      'cargo',
      'txt',
      ONE_EACH,
      { 'unittests src/lib.rs > tests::wrong': 'failed', 'tests/it.rs > integration': 'passed' },
      NONE,
    ],
  ])('%s', (_title, runner, ext, counts, tests, filtered, printed: RegExp | undefined = undefined) => {
    const dir = DIR[runner] ?? runner;
    const rep = parse(runner, dir, `report.${ext}`);
    expect(rep.counts).toEqual(counts);
    // node-tap counts assertions as tap does, and names one test per leaf t.test (5 here).
    expect(rep.tests).toHaveLength(runner === 'node-tap' ? 5 : counts.total);
    expect(ids(rep)).toMatchObject(tests);
    if (printed) expect(rep.tests.filter((t) => printed.test(t.id))).toEqual([]);
    expect(parse(runner, dir, `filtered.${ext}`).counts).toMatchObject(filtered);
  });

  it('pytest --junitxml: a test names its file', () => {
    expect(parse('pytest', 'pytest', 'report.xml').tests[0]?.file).toBe('tests/test_calc.py');
  });

  it('every runner refuses text that is not its report', () => {
    for (const r of RUNNERS) expect(r.parse('Tests: 5 passed, 5 total\n', '/project')).toBeUndefined();
  });
});
