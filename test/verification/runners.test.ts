import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { RUNNERS, runnerNamed } from '../../src/agent/verification/test-results/runners/index.js';

const FIX = 'test/fixtures/runner-output';
const read = (dir: string, file: string) => readFileSync(join(FIX, dir, file), 'utf8');
const parse = (runner: string, dir: string, file: string) => {
  const r = runnerNamed(runner);
  if (!r) throw new Error(`no runner ${runner}`);
  const rep = r.parse(read(dir, file), '/project');
  if (!rep) throw new Error(`${runner} could not parse ${dir}/${file}`);
  return rep;
};
const ids = (rep: ReturnType<typeof parse>) => Object.fromEntries(rep.tests.map((t) => [t.id, t.outcome]));

// Real outputs, captured once by test/fixtures/runner-output/capture.sh (versions in the README there).
describe('runner reports - counted per test from the real reports', () => {
  it('jest --json: per assertion result, file relative to the run', () => {
    const rep = parse('jest', 'jest', 'report.json');
    expect(rep.counts).toEqual({ passed: 2, failed: 1, skipped: 1, total: 4 });
    expect(ids(rep)).toEqual({
      'test/math.test.js > add adds two numbers': 'passed',
      'test/math.test.js > add is wrong on purpose': 'failed',
      'test/math.test.js > add is skipped': 'skipped',
      'test/math.test.js > top level works': 'passed',
    });
    // The test logs "Tests: 99 passed" to stdout: not in the report, not counted.
    expect(parse('jest', 'jest', 'filtered.json').counts).toEqual({ passed: 0, failed: 0, skipped: 4, total: 4 });
  });

  it('vitest json reporter', () => {
    expect(parse('vitest', 'vitest', 'report.json').counts).toEqual({ passed: 2, failed: 1, skipped: 1, total: 4 });
    expect(ids(parse('vitest', 'vitest', 'report.json'))['test/math.test.mjs > add is wrong on purpose']).toBe('failed');
    expect(parse('vitest', 'vitest', 'filtered.json').counts).toEqual({ passed: 0, failed: 0, skipped: 4, total: 4 });
  });

  it('mocha json reporter (--reporter-option output=)', () => {
    const rep = parse('mocha', 'mocha', 'report.json');
    expect(rep.counts).toEqual({ passed: 2, failed: 1, skipped: 1, total: 4 });
    expect(ids(rep)['test/math.spec.js > add is wrong on purpose']).toBe('failed');
    expect(parse('mocha', 'mocha', 'filtered.json').counts.total).toBe(0);
  });

  it('node --test junit reporter: describe path + name, skip and todo skipped, the printed "# pass 99" ignored', () => {
    const rep = parse('node-test', 'node-test', 'report.xml');
    expect(rep.counts).toEqual({ passed: 2, failed: 1, skipped: 2, total: 5 });
    expect(ids(rep)).toMatchObject({
      'add > adds two numbers': 'passed',
      'add > is wrong on purpose': 'failed',
      'add > is todo': 'skipped',
      'top level works': 'passed',
    });
    expect(parse('node-test', 'node-test', 'filtered.xml').counts).toEqual({ passed: 0, failed: 0, skipped: 5, total: 5 });
  });

  it('ava --tap: every test counted, todo skipped, what a test logs is not a result', () => {
    const rep = parse('ava', 'ava', 'report.tap');
    expect(rep.counts).toEqual({ passed: 2, failed: 1, skipped: 2, total: 5 });
    expect(Object.keys(ids(rep))).not.toContain('fake');
    expect(parse('ava', 'ava', 'filtered.tap').counts.total).toBe(0);
  });

  it('node-tap: per test (leaf subtest), not per file or per assertion', () => {
    const rep = parse('node-tap', 'tap', 'report.tap');
    expect(rep.counts).toEqual({ passed: 3, failed: 1, skipped: 1, total: 5 });
    expect(ids(rep)).toEqual({
      'test/math.test.js > add > adds two numbers': 'passed',
      'test/math.test.js > add > is wrong on purpose': 'failed',
      'test/math.test.js > add > is skipped': 'skipped',
      'test/math.test.js > top level works': 'passed',
      'test/other.test.js > other file': 'passed',
    });
    expect(parse('node-tap', 'tap', 'filtered.tap').counts).toEqual({ passed: 0, failed: 0, skipped: 3, total: 3 });
  });

  it("jasmine through the harness's reporter: excluded specs did not run", () => {
    const rep = parse('jasmine', 'jasmine', 'report.json');
    expect(rep.counts).toEqual({ passed: 2, failed: 1, skipped: 1, total: 4 });
    expect(ids(rep)['spec/math.spec.js > add is wrong on purpose']).toBe('failed');
    expect(parse('jasmine', 'jasmine', 'filtered.json').counts.total).toBe(0);
  });

  it('playwright test json reporter', () => {
    const rep = parse('playwright', 'playwright', 'report.json');
    expect(rep.counts).toEqual({ passed: 2, failed: 1, skipped: 1, total: 4 });
    expect(ids(rep)['math.spec.js > add > is wrong on purpose']).toBe('failed');
    expect(parse('playwright', 'playwright', 'filtered.json').counts.total).toBe(0);
  });

  it('pytest --junitxml: file from the module path, class::name', () => {
    const rep = parse('pytest', 'pytest', 'report.xml');
    expect(rep.counts).toEqual({ passed: 2, failed: 1, skipped: 1, total: 4 });
    expect(ids(rep)).toMatchObject({
      'tests/test_calc.py > TestAdd::test_wrong': 'failed',
      'tests/test_calc.py > test_skipped': 'skipped',
    });
    expect(rep.tests[0]?.file).toBe('tests/test_calc.py');
    expect(parse('pytest', 'pytest', 'filtered.xml').counts.total).toBe(0);
  });

  it('unittest -v result lines (stderr); the printed "Ran 40 tests" is not read', () => {
    const rep = parse('unittest', 'unittest', 'report.txt');
    expect(rep.counts).toEqual({ passed: 2, failed: 1, skipped: 1, total: 4 });
    expect(ids(rep)['tests/test_calc.py > TestAdd::test_wrong']).toBe('failed');
    expect(parse('unittest', 'unittest', 'filtered.txt').counts.total).toBe(0);
  });

  it('go test -json: every test and subtest as go test -v lists them, and a "--- PASS: Fake" printed by a test is no test', () => {
    const rep = parse('go', 'go', 'report.json');
    // TestTable and its two cases are three tests, as `go test -v` prints three `--- PASS` lines.
    expect(rep.counts).toEqual({ passed: 4, failed: 1, skipped: 1, total: 6 });
    expect(Object.keys(ids(rep))).toEqual(
      expect.arrayContaining(['example.com/m/calc > TestTable/case1', 'example.com/m/calc > TestWrong']),
    );
    expect(Object.keys(ids(rep)).some((id) => id.includes('Fake'))).toBe(false);
    expect(parse('go', 'go', 'filtered.json').counts.total).toBe(0);
  });

  it('cargo test libtest lines per target; "test fake ... ok" printed by a test is not read', () => {
    const rep = parse('cargo', 'cargo', 'report.txt');
    expect(rep.counts).toEqual({ passed: 2, failed: 1, skipped: 1, total: 4 });
    expect(ids(rep)).toMatchObject({ 'unittests src/lib.rs > tests::wrong': 'failed', 'tests/it.rs > integration': 'passed' });
    expect(parse('cargo', 'cargo', 'filtered.txt').counts.total).toBe(0);
  });

  it('every runner refuses text that is not its report', () => {
    for (const r of RUNNERS) expect(r.parse('Tests: 5 passed, 5 total\n', '/project')).toBeUndefined();
  });
});
