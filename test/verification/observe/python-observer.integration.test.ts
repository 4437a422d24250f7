import { describe, expect, it, jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pythonDir, pythonObserver } from '../../../src/agent/verification/test-results/observe/python-observer.js';
import { runnerNamed } from '../../../src/agent/verification/test-results/runners/index.js';
import { tempDir } from '../../kit/temp.js';
import {
  fixtureCopy,
  ids,
  readReports,
  run,
  runObserved,
  steady,
  type Env,
  type ObservedReport,
  type Run,
} from '../../kit/verify-observe.js';

// Real python3 and pytest (CI installs python3 and python3-pytest), real processes, commands as written.
const FIX = 'test/fixtures/observe/python';
// Each test runs a real runner twice (as written, and observed); on a loaded machine that takes a while.
jest.setTimeout(180_000);
/** A copy of a fixture project in a fresh folder. */
const project = (name: string) => fixtureCopy(join(FIX, name), 'proofpr-pyobs-');

interface Observed extends Run {
  files: string[];
  reports: ObservedReport[];
}

function baseEnv(extra: Record<string, string> = {}): Env {
  const env: Env = { ...process.env, PYTHONDONTWRITEBYTECODE: '1' };
  delete env.PYTHONPATH;
  delete env.PROOFPR_OBSERVED_RUNNER;
  return { ...env, ...extra };
}
/** Runs `command` as written with only the observer's files and environment added; parses every report with its runner. */
function observe(cwd: string, command: string, extra: Record<string, string> = {}): Observed {
  const { dir, ...r } = runObserved(pythonObserver, cwd, command, baseEnv(extra));
  const { files, reports } = readReports(dir, cwd);
  return { ...r, files, reports: reports.filter((x) => x.file.endsWith('.report')) };
}
/** unittest's own count: "Ran N tests". */
const ranN = (stderr: string) => Number(/^Ran (\d+) tests? in /m.exec(stderr)?.[1] ?? NaN);

describe('python observer: environment and files only', () => {
  it('prepends its folder to the PYTHONPATH the command would get; writes sitecustomize and its modules there', () => {
    expect(pythonObserver.env('/x/d', { PYTHONPATH: 'src' })).toEqual({ PYTHONPATH: `${pythonDir('/x/d')}:src` });
    expect(pythonObserver.env('/x/d', {})).toEqual({ PYTHONPATH: '/x/d/py' });
    expect(pythonObserver.files('/x/d').map((f) => f.path)).toEqual([
      '/x/d/py/sitecustomize.py',
      '/x/d/py/_proofpr_observe.py',
      '/x/d/py/_proofpr_observe_pytest.py',
    ]);
    expect(pythonObserver.files('/x/d')[1]?.content).toContain('REPORTS = "/x/d/reports"');
  });

  it('a non-runner python process: no report, the same output and exit status', () => {
    const root = project('script');
    const command = `python3 -c "import sys, unittest; print('hi', len(sys.argv)); sys.stderr.write('warn\\n'); sys.exit(3)"`;
    const plain = run(root, command, baseEnv());
    const o = observe(root, command);
    expect(o.files).toEqual([]);
    expect([o.code, o.stdout, o.stderr]).toEqual([3, plain.stdout, plain.stderr]);
  });

  it('runs the sitecustomize it shadows first (its module stays importable as sitecustomize)', () => {
    const root = project('script');
    const shadow = realpathSync(join(FIX, 'shadow'));
    const mark = join(tempDir('proofpr-pyobs-mark-'), 'mark');
    const o = observe(root, `python3 -c "import sitecustomize; print(sitecustomize.SHADOWED)"`, { PYTHONPATH: shadow, SHADOW_MARK: mark });
    expect([o.code, o.stdout.trim(), o.stderr]).toEqual([0, 'True', '']);
    expect(readFileSync(mark, 'utf8')).toBe('ran');
  });
});

describe('python observer: pytest', () => {
  it('a composite command (echo lint && pytest -q && python3 -m unittest): one report per runner call, output unchanged', () => {
    const root = project('calc');
    const command = 'echo lint && python3 -m pytest -q -p no:cacheprovider && python3 -m unittest';
    const plain = run(root, command, baseEnv());
    const o = observe(root, command);
    expect(o.code).toBe(0);
    expect(steady(o.stdout)).toBe(steady(plain.stdout));
    expect(steady(o.stderr)).toBe(steady(plain.stderr));
    expect(o.reports.map((r) => r.runner).sort()).toEqual(['pytest', 'unittest']);
    const py = o.reports.find((r) => r.runner === 'pytest')?.report;
    // pytest: 6 TestCase methods (the subTests are one test; the expected failure is xfailed: skipped) + 3
    // functions; the printed "99 passed" is no count.
    expect(py?.counts).toEqual({ passed: 7, failed: 0, skipped: 2, total: 9 });
    expect(ids(py)).toContain('passed tests/test_funcs.py > test_param[1-1-2]');
    expect(ids(py)).toContain('passed tests/test_calc.py > TestAdd::test_cases');
    const ut = o.reports.find((r) => r.runner === 'unittest')?.report;
    expect(ut?.counts.total).toBe(ranN(o.stderr));
    // unittest: the expected failure is skipped as pytest's xfail is (never a pass).
    expect(ut?.counts).toEqual({ passed: 4, failed: 0, skipped: 2, total: 6 });
  });

  it("the user's own --junitxml is still written and named in the output; a failing run keeps its exit status", () => {
    const root = project('calc');
    const command = 'python3 -m pytest -p no:cacheprovider --junitxml=own.xml tests/test_calc.py';
    const plain = run(root, command, baseEnv({ CALC_FAIL: '1' }));
    rmSync(join(root, 'own.xml'));
    const o = observe(root, command, { CALC_FAIL: '1' });
    expect([plain.code, o.code]).toEqual([1, 1]);
    expect(steady(o.stdout)).toBe(steady(plain.stdout));
    expect(o.stdout).toContain('generated xml file');
    expect(runnerNamed('pytest')?.parse(readFileSync(join(root, 'own.xml'), 'utf8'), root)?.counts.total).toBe(6);
    expect(o.reports).toHaveLength(1);
    expect(o.reports[0]?.report?.counts).toEqual({ passed: 3, failed: 1, skipped: 2, total: 6 });
    expect(ids(o.reports[0]?.report)).toContain('failed tests/test_calc.py > TestAdd::test_fails_when_asked');
  });

  it('a runner started by a test (a pytest test running python -m unittest) is inside the call: one report', () => {
    const root = project('nested');
    const o = observe(root, 'python3 -m pytest -q -p no:cacheprovider');
    expect(o.code).toBe(0);
    expect(o.reports.map((r) => [r.runner, r.report?.counts.total])).toEqual([['pytest', 1]]);
  });
});

describe('python observer: unittest', () => {
  it('load_tests adding doctests, a doctest file, a FunctionTestCase, docstring tests, subTests: count == "Ran N"', () => {
    const root = project('docs');
    const o = observe(root, 'python3 -m unittest');
    expect(o.code).toBe(0);
    const rep = o.reports[0]?.report;
    expect(o.reports.map((r) => r.runner)).toEqual(['unittest']);
    expect(rep?.counts.total).toBe(ranN(o.stderr));
    expect(rep?.counts).toEqual({ passed: 11, failed: 0, skipped: 1, total: 12 });
    expect(ids(rep)).toEqual(
      expect.arrayContaining([
        'passed pkg/mod.py > double',
        'passed pkg/mod.py > Box::grow',
        'passed pkg/mod.py > mod',
        'passed pkg/__init__.py > pkg',
        'passed README.txt > README.txt',
        'passed tests/test_docs.py > load_tests::<locals>::<lambda>',
        'passed tests/test_docs.py > TestMore::test_two',
        'skipped tests/test_docs.py > TestMore::test_later',
      ]),
    );
  });

  it('a class fixture that skips (setUpClass raising SkipTest) is not counted, as "Ran N" leaves it out; a fixture error fails', () => {
    const root = project('fixtures');
    const green = observe(root, 'python3 -m unittest');
    expect(green.code).toBe(0);
    expect(ranN(green.stderr)).toBe(3);
    expect(green.reports[0]?.report?.counts).toEqual({ passed: 2, failed: 0, skipped: 1, total: 3 });
    expect(ids(green.reports[0]?.report)).toEqual([
      'passed tests/test_fixtures.py > Broken::test_three',
      'passed tests/test_fixtures.py > Plain::test_four',
      'skipped tests/test_fixtures.py > Plain::test_five',
    ]);
    // The broken fixture's tests never start ("Ran 2"); its error is one failed entry, so the run is red.
    const red = observe(root, 'python3 -m unittest', { FIXTURE_FAIL: '1' });
    expect(red.code).toBe(1);
    expect(ranN(red.stderr)).toBe(2);
    expect(red.reports[0]?.report?.counts).toEqual({ passed: 1, failed: 1, skipped: 1, total: 3 });
    expect(ids(red.reports[0]?.report)).toContain('failed setUpClass (tests.test_fixtures.Broken)');
    // The -v lines (the direct-call path) give the same tests: the fixture's skip line is no test there either.
    const verbose = run(root, 'python3 -m unittest -v', baseEnv());
    expect(verbose.stderr).toMatch(/^setUpClass \(tests\.test_fixtures\.NeedsOptional\) \.\.\. skipped/m);
    expect(ids(runnerNamed('unittest')?.parse(verbose.stderr, root))).toEqual(ids(green.reports[0]?.report));
  });

  it('python3 -m unittest -v (verbose, failing): the same count, the exit status and output unchanged', () => {
    const root = project('calc');
    const plain = run(root, 'python3 -m unittest -v', baseEnv({ CALC_FAIL: '1' }));
    const o = observe(root, 'python3 -m unittest -v', { CALC_FAIL: '1' });
    expect([plain.code, o.code]).toEqual([1, 1]);
    expect(steady(o.stderr)).toBe(steady(plain.stderr));
    // test_known_bug is an expectedFailure: skipped, never a pass.
    expect(o.reports[0]?.report?.counts).toEqual({ passed: 3, failed: 1, skipped: 2, total: ranN(o.stderr) });
    expect(ids(o.reports[0]?.report)).toContain('skipped tests/test_calc.py > TestAdd::test_known_bug');
    // The same ids as the runner's -v lines give (the direct-call path), a docstring test's split line included.
    expect(ids(runnerNamed('unittest')?.parse(o.stderr, root))).toEqual(ids(o.reports[0]?.report));
  });

  it('a script calling unittest.main(), twice in one command: one report per call, named by the script', () => {
    const root = project('script');
    const o = observe(root, 'python3 run_tests.py && python3 run_tests.py ScriptTests.test_a');
    expect(o.code).toBe(0);
    expect(o.reports.map((r) => ids(r.report)).sort((a, b) => b.length - a.length)).toEqual([
      ['passed run_tests.py > ScriptTests::test_a', 'passed run_tests.py > ScriptTests::test_b'],
      ['passed run_tests.py > ScriptTests::test_a'],
    ]);
  });

  it('inside a virtualenv (python -m venv) the runners are observed the same way', () => {
    const root = project('calc');
    const venv = join(tempDir('proofpr-pyobs-venv-'), 'venv');
    const made = spawnSync('python3', ['-m', 'venv', '--without-pip', '--system-site-packages', venv], { encoding: 'utf8' });
    expect(made.stderr).toBe('');
    const o = observe(root, `. ${venv}/bin/activate && python -m unittest && python -m pytest -q -p no:cacheprovider`);
    expect(o.code).toBe(0);
    expect(o.reports.map((r) => [r.runner, r.report?.counts.total]).sort()).toEqual([
      ['pytest', 9],
      ['unittest', 6],
    ]);
  });
});
