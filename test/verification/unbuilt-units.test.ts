/**
 * A unit of tests that does not build or load (a Go package, a cargo target, a jest or vitest file
 * that fails before any test runs) is one failed test, `<unit> > [build failed]`: a run that compiles
 * nothing is still a counted failing run that names what fails, and a base unit that did not build is
 * fixed when it builds and its tests pass.
 */
import { describe, expect, it } from '@jest/globals';
import type { TestCase } from '../../src/agent/events.js';
import { parseCargoSummary } from '../../src/agent/verification/test-results/parsers/cargo.js';
import { parseGoTestSummary } from '../../src/agent/verification/test-results/parsers/go-test.js';
import { parseJestJson } from '../../src/agent/verification/test-results/parsers/jest-json.js';
import { cargoRunner } from '../../src/agent/verification/test-results/runners/cargo.js';
import { goTestRunner } from '../../src/agent/verification/test-results/runners/go-test.js';
import { jestRunner, vitestRunner } from '../../src/agent/verification/test-results/runners/jest.js';
import { judgeKept } from '../../src/agent/verification/differential/judge-kept.js';
import { fixedIds, testsKept } from '../../src/agent/verification/test-results/test-outcomes.js';
import { isNotBuilt, onlyNotBuilt, passesIn } from '../../src/agent/verification/test-results/unbuilt.js';
import type { Baseline } from '../../src/agent/verification/test-runs/baseline.js';
import { baselineOf, runOf } from './run-kit.js';

const lines = (s: string): string[] => s.split('\n');

const GO_TEXT = [
  '# example.com/calc [example.com/calc.test]',
  './calc_new_test.go:6:5: undefined: AbsAll',
  'FAIL\texample.com/calc [build failed]',
  '=== RUN   TestParse',
  '--- PASS: TestParse (0.00s)',
  'PASS',
  'ok  \texample.com/calc/parse\t0.01s',
  'FAIL\texample.com/calc/setup [setup failed]',
  'FAIL',
].join('\n');

const CARGO_TEXT = [
  '   Compiling c v0.1.0 (/p)',
  'error[E0432]: unresolved import `c::nothere`',
  ' --> tests/it.rs:1:5',
  'error: could not compile `c` (test "it") due to 1 previous error',
  'warning: build failed, waiting for other jobs to finish...',
].join('\n');

const JEST_JSON = JSON.stringify({
  numTotalTests: 1,
  numPassedTests: 1,
  numFailedTests: 0,
  numRuntimeErrorTestSuites: 1,
  testResults: [
    { name: '/p/test/ok.test.js', status: 'passed', assertionResults: [{ title: 'works', ancestorTitles: [], status: 'passed' }] },
    { name: '/p/test/new.test.ts', status: 'failed', message: 'Cannot find module', assertionResults: [] },
  ],
});

const ids = (tests: readonly TestCase[] | undefined): string[] => (tests ?? []).map((t) => `${t.id}: ${t.outcome}`);

describe('units that did not build are one failed test each', () => {
  it('go: a package whose tests do not compile and one whose setup failed, beside one that ran', () => {
    const r = goTestRunner.parse(GO_TEXT, '/p');
    expect(ids(r?.tests)).toEqual([
      'example.com/calc/parse > TestParse: passed',
      'example.com/calc > [build failed]: failed',
      'example.com/calc/setup > [build failed]: failed',
    ]);
    expect(r?.counts).toEqual({ passed: 1, failed: 2, skipped: 0, total: 3 });
    expect(parseGoTestSummary(lines(GO_TEXT))?.counts).toMatchObject({ passed: 1, failed: 2 });
  });

  it('go: plain output where the only package did not build is a known failing run', () => {
    const plain = ['./x_test.go:3:2: undefined: Foo', 'FAIL\texample.com/x [build failed]', 'FAIL'].join('\n');
    expect(ids(goTestRunner.parse(plain, '/p')?.tests)).toEqual(['example.com/x > [build failed]: failed']);
    expect(parseGoTestSummary(lines(plain))?.counts).toMatchObject({ passed: 0, failed: 1 });
  });

  it('go -json: the package fail event naming the failed build, or its FAIL output line', () => {
    const newer = [
      '{"Action":"start","Package":"example.com/x"}',
      '{"Action":"fail","Package":"example.com/x","FailedBuild":"example.com/x [example.com/x.test]"}',
    ].join('\n');
    const older = [
      '{"Action":"output","Package":"example.com/y","Output":"FAIL\\texample.com/y [build failed]\\n"}',
      '{"Action":"fail","Package":"example.com/y","Elapsed":0}',
    ].join('\n');
    expect(ids(goTestRunner.parse(newer, '/p')?.tests)).toEqual(['example.com/x > [build failed]: failed']);
    expect(ids(goTestRunner.parse(older, '/p')?.tests)).toEqual(['example.com/y > [build failed]: failed']);
  });

  it('cargo: a target that does not compile (no test block at all)', () => {
    const r = cargoRunner.parse(CARGO_TEXT, '/p');
    expect(ids(r?.tests)).toEqual(['tests/it.rs > [build failed]: failed']);
    expect(r?.tests[0]?.file).toBe('tests/it.rs');
    const lib = CARGO_TEXT.replace('(test "it")', '(lib test)');
    expect(ids(cargoRunner.parse(lib, '/p')?.tests)).toEqual(['unittests src/lib.rs > [build failed]: failed']);
    expect(parseCargoSummary(lines(CARGO_TEXT))?.counts).toMatchObject({ passed: 0, failed: 1 });
  });

  it('jest and vitest: a file that failed before any test ran', () => {
    for (const runner of [jestRunner, vitestRunner]) {
      const r = runner.parse(JEST_JSON, '/p');
      expect(ids(r?.tests)).toEqual(['test/ok.test.js > works: passed', 'test/new.test.ts > [build failed]: failed']);
      expect(r?.tests[1]?.file).toBe('test/new.test.ts');
    }
    expect(parseJestJson(JEST_JSON)).toEqual({ passed: 1, failed: 1, skipped: 0, total: 2 });
  });

  it('text a test prints cannot add one: go -v inside an open test, a go -json test event, cargo after the build', () => {
    const goPlain = ['=== RUN   TestA', 'FAIL\texample.com/b [build failed]', '--- PASS: TestA (0.00s)', 'ok  \texample.com/a\t0.01s'].join(
      '\n',
    );
    expect(ids(goTestRunner.parse(goPlain, '/p')?.tests)).toEqual(['example.com/a > TestA: passed']);
    const goJson = [
      '{"Action":"run","Package":"example.com/a","Test":"TestA"}',
      '{"Action":"output","Package":"example.com/a","Test":"TestA","Output":"FAIL\\texample.com/b [build failed]\\n"}',
      '{"Action":"pass","Package":"example.com/a","Test":"TestA"}',
    ].join('\n');
    expect(ids(goTestRunner.parse(goJson, '/p')?.tests)).toEqual(['example.com/a > TestA: passed']);
    const cargo = [
      '     Running tests/it.rs (target/debug/deps/it-1)',
      'running 1 test',
      'test compiles_a_broken_fixture ... ok',
      'error: could not compile `fixture` (lib) due to 1 previous error',
      'test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out',
    ].join('\n');
    expect(ids(cargoRunner.parse(cargo, '/p')?.tests)).toEqual(['tests/it.rs > compiles_a_broken_fixture: passed']);
    expect(parseCargoSummary(lines(cargo))?.counts).toMatchObject({ passed: 1, failed: 0 });
  });

  it('a run of real tests, passing or failing, has no such test', () => {
    const ok = ['=== RUN   TestA', '--- FAIL: TestA (0.00s)', 'FAIL\texample.com/a\t0.01s'].join('\n');
    expect(goTestRunner.parse(ok, '/p')?.tests.some((t) => isNotBuilt(t.id))).toBe(false);
  });
});

describe('judging a unit that did not build', () => {
  const P = 'example.com/calc';
  const base = (failing: string[]): Baseline => baselineOf(failing.map((id) => [id, 'failed']));

  it('a base package that did not build is fixed when it builds and its tests pass, not before', () => {
    const b = base([`${P} > [build failed]`]);
    expect(fixedIds(b, runOf([[`${P} > TestAbs`, 'passed']]))).toEqual([`${P} > [build failed]`]);
    expect(fixedIds(b, runOf([[`${P} > [build failed]`, 'failed']]))).toEqual([]);
    expect(
      fixedIds(
        b,
        runOf([
          [`${P} > TestAbs`, 'passed'],
          [`${P} > TestB`, 'failed'],
        ]),
      ),
    ).toEqual([]);
    // Gone, not fixed: no test under it runs now (its test file deleted or built out), whatever the others do.
    expect(passesIn(runOf([['other > TestX', 'passed']]), `${P} > [build failed]`)).toBe(false);
  });

  it('a real test passes by its id only', () => {
    expect(passesIn(runOf([[`${P} > TestAbs`, 'passed']]), `${P} > TestAbs`)).toBe(true);
    expect(passesIn(runOf([[`${P} > TestAbs`, 'failed']]), `${P} > TestAbs`)).toBe(false);
    expect(passesIn(runOf([]), `${P} > TestAbs`)).toBe(false);
  });

  it('a base unit that did not build is no test the final run must keep, nor a regression when it builds', () => {
    const b = base([`${P} > [build failed]`]);
    const withReal: Baseline = { ...b, tests: [...b.tests, { id: 'other > TestX', outcome: 'passed' }] };
    const now = runOf([
      [`${P} > TestAbs`, 'passed'],
      ['other > TestX', 'passed'],
    ]);
    expect(testsKept(withReal, now, [])).toMatchObject({ passed: true, missing: [] });
    const j = judgeKept({
      base: withReal,
      kept: { ...now, kind: 'kept' },
      final: now,
      change: { restored: ['other/x_test.go'], removed: [], packageJson: [] },
      output: '',
      mode: 'review',
      baseSha: 'abcdef0123456789',
    });
    expect({ passed: j.gate.passed, regressions: j.regressions, changed: j.changedExpectations }).toEqual({
      passed: true,
      regressions: [],
      changed: [],
    });
  });

  it('onlyNotBuilt: every test read is a unit that did not build', () => {
    expect(onlyNotBuilt([{ id: `${P} > [build failed]`, outcome: 'failed' }])).toBe(true);
    expect(onlyNotBuilt([])).toBe(false);
    expect(
      onlyNotBuilt([
        { id: `${P} > [build failed]`, outcome: 'failed' },
        { id: `${P} > T`, outcome: 'passed' },
      ]),
    ).toBe(false);
  });
});
