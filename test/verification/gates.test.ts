import { describe, expect, it } from '@jest/globals';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import type { TestRun } from '../../src/agent/events.js';
import { evaluateGates, type GateFacts } from '../../src/agent/verification/gates/gates.js';
import { stopMessage } from '../../src/agent/verification/stop-message.js';

const TREE = 'a'.repeat(40);
const config = (yaml = 'test:\n  command: npm test\n') => parseRepoConfig(yaml);
const run = (over: Partial<TestRun> = {}): TestRun => ({
  command: 'npm test',
  exitCode: 0,
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: '2026-01-01T00:00:05.000Z',
  treeHash: TREE,
  counts: { passed: 3, failed: 0, skipped: 0, total: 3 },
  source: 'summary-line',
  by: 'agent',
  ...over,
});
const kept = { passed: true, detail: 'no test file changed', removed: [], skipsAdded: [], deletedTestFiles: [], changedTestFiles: [] };
const configKept = { passed: true, detail: 'no test script or test runner config changed', changed: [] };
const facts = (over: Partial<GateFacts> = {}): GateFacts => ({
  config: config(),
  testRuns: [run()],
  currentTreeHash: TREE,
  assertions: kept,
  testConfig: configKept,
  ...over,
});
const byName = (f: GateFacts) => Object.fromEntries(evaluateGates(f).map((g) => [g.name, g]));

describe('evaluateGates', () => {
  it('gates - an honest run passes every default gate', () => {
    const gates = evaluateGates(facts());
    expect(gates.map((g) => g.name)).toEqual(['tests-ran', 'tests-passed', 'tests-fresh', 'assertions-kept', 'test-config-kept']);
    expect(gates.every((g) => g.passed)).toBe(true);
  });

  it.each<[string, string, Partial<GateFacts>, RegExp]>([
    ['no test run at all', 'tests-ran', { testRuns: [] }, /no test run: run `npm test`/],
    [
      '0 tests executed (all filtered out)',
      'tests-ran',
      { testRuns: [run({ counts: { passed: 0, failed: 0, skipped: 7, total: 7 } })] },
      /0 test\(s\) executed .* at least 1 needed/,
    ],
    [
      'counts unknown',
      'tests-ran',
      { testRuns: [run({ counts: null, source: 'none' })] },
      /couldn't read test counts from the output; configure test.report/,
    ],
    [
      'a failing exit code',
      'tests-passed',
      { testRuns: [run({ exitCode: 1, counts: { passed: 2, failed: 1, skipped: 0, total: 3 } })] },
      /exited with code 1/,
    ],
    [
      'failures reported with exit 0',
      'tests-passed',
      { testRuns: [run({ counts: { passed: 2, failed: 1, skipped: 0, total: 3 } })] },
      /1 failed/,
    ],
    ['a timed-out run', 'tests-passed', { testRuns: [run({ exitCode: null })] }, /did not finish/],
    [
      'an edit after the run',
      'tests-fresh',
      { currentTreeHash: 'b'.repeat(40) },
      /files changed after the last test run: run the tests again \(`npm test`\)/,
    ],
    [
      'an assertion removed',
      'assertions-kept',
      { assertions: { ...kept, passed: false, detail: 'test/a.test.js: 1 assertion(s) removed' } },
      /test\/a.test.js: 1 assertion\(s\) removed/,
    ],
    ['the assertions not checked', 'assertions-kept', { assertions: undefined }, /not checked/],
  ])('gates - %s fails %s', (_what, gate, over, detail) => {
    const g = byName(facts(over))[gate];
    expect(g?.passed).toBe(false);
    expect(g?.detail).toMatch(detail);
  });

  it('gates - an agent run of a runner called straight with no counts in its output (go test) is counted by the final run', () => {
    const goRun = run({ command: 'go test ./...', counts: null, source: 'none' });
    const g = byName(facts({ config: config('test:\n  command: go test ./...\n'), testRuns: [goRun] }))['tests-ran'];
    expect(g).toMatchObject({ passed: true, detail: expect.stringContaining("the harness's final run asks the runner for its report") });
    const unittest = run({ command: 'PYTHONPATH=src python3 -m unittest', counts: null, source: 'none' });
    expect(
      byName(facts({ config: config('test:\n  command: PYTHONPATH=src python3 -m unittest\n'), testRuns: [unittest] }))['tests-ran']
        ?.passed,
    ).toBe(true);
    // Without the final run, or once the harness's own run has no counts either, it fails as before.
    const off = byName(facts({ config: config('test:\n  command: go test ./...\ngates:\n  final_run: false\n'), testRuns: [goRun] }))[
      'tests-ran'
    ];
    expect(off?.passed).toBe(false);
    const harness = byName(facts({ config: config('test:\n  command: go test ./...\n'), testRuns: [goRun, { ...goRun, by: 'harness' }] }))[
      'tests-ran'
    ];
    expect(harness?.detail).toMatch(/couldn't read test counts/);
  });

  it('gates - min_tests raises the bar for tests-ran', () => {
    const g = byName(facts({ config: config('test:\n  command: npm test\n  min_tests: 5\n') }))['tests-ran'];
    expect(g?.passed).toBe(false);
    expect(g?.detail).toContain('at least 5 needed');
  });

  it('gates - tests-ran fails when fewer tests ran than an earlier unfiltered test.command run', () => {
    const full = run({ counts: { passed: 10, failed: 2, skipped: 1, total: 13 } });
    const narrowed = run({ by: 'harness', counts: { passed: 4, failed: 0, skipped: 0, total: 4 } });
    const g = byName(facts({ testRuns: [full, narrowed] }))['tests-ran'];
    expect(g?.passed).toBe(false);
    expect(g?.detail).toContain('4 test(s) executed by `npm test`, fewer than the 12 an earlier `npm test` run executed');
    expect(g?.detail).toContain('restore the test files, test scripts or runner config');
    // A filtered run (not exactly test.command) sets no bar; neither do skipped tests.
    const filtered = run({ command: 'npm test -- -t parse', counts: { passed: 30, failed: 0, skipped: 0, total: 30 } });
    const skippedOnly = run({ counts: { passed: 4, failed: 0, skipped: 20, total: 24 } });
    expect(byName(facts({ testRuns: [filtered, skippedOnly, narrowed] }))['tests-ran']?.passed).toBe(true);
    // Whitespace differences do not make it another command; runs after the counting one do not count.
    expect(byName(facts({ testRuns: [run({ command: ' npm  test ', counts: full.counts }), narrowed] }))['tests-ran']?.passed).toBe(false);
    expect(byName(facts({ testRuns: [narrowed, full] }))['tests-ran']?.passed).toBe(true);
  });

  it('gates - tests-ran fails below the base commit count when it is known', () => {
    const g = byName(facts({ baselineExecuted: 5 }))['tests-ran'];
    expect(g?.passed).toBe(false);
    expect(g?.detail).toContain('3 test(s) executed by `npm test`, fewer than the 5 `npm test` executed on the base commit');
    expect(byName(facts({ baselineExecuted: 3 }))['tests-ran']?.passed).toBe(true);
  });

  it('gates - tests-fresh says why the tree moved: no hash, the test command wrote files, a Stop hook changed files', () => {
    const moved = { currentTreeHash: 'b'.repeat(40) };
    expect(byName(facts({ ...moved, hashError: "error: 'sub/' does not have a commit checked out" }))['tests-fresh']?.detail).toBe(
      "could not hash the worktree: error: 'sub/' does not have a commit checked out; remove nested git repositories (folders with their own .git) or add them to .gitignore, then run `npm test` again",
    );
    expect(byName(facts({ hashError: 'x' }))['tests-fresh']?.passed).toBe(false);
    expect(byName(facts({ ...moved, changedByTestRun: ['reports/junit.xml', 'coverage/lcov.info'] }))['tests-fresh']?.detail).toBe(
      'the test command itself changed files: reports/junit.xml, coverage/lcov.info; add them to .gitignore or test.report',
    );
    expect(
      byName(facts({ ...moved, changedByStopHooks: { hooks: ['npx prettier -w .'], files: ['src/a.js'] } }))['tests-fresh']?.detail,
    ).toBe(
      "the repository's Stop hook (`npx prettier -w .`) changed files after the last test run (src/a.js): run the tests again (`npm test`) on the changed files",
    );
  });

  it('gates - test-config-kept comes with assertions-kept and reports its result', () => {
    const changed = { passed: false, detail: 'package.json: scripts.test changed\nRevert these changes', changed: ['package.json'] };
    expect(byName(facts({ testConfig: changed }))['test-config-kept']).toEqual({
      name: 'test-config-kept',
      passed: false,
      detail: changed.detail,
    });
    expect(byName(facts({ testConfig: undefined }))['test-config-kept']).toMatchObject({
      passed: false,
      detail: 'the test scripts and test runner config were not checked',
    });
  });

  it('gates - a missing test.command names the config key and the gate', () => {
    const gates = byName(facts({ config: config(''), testRuns: [] }));
    expect(gates['tests-ran']?.detail).toBe('`test.command` is missing in .github/proofpr.yml (needed by gate tests-ran)');
    expect(gates['tests-fresh']?.detail).toContain('(needed by gate tests-fresh)');
  });

  it('gates - the last run counts, and the harness final run over any agent run', () => {
    const stale = run({ treeHash: 'old' });
    expect(byName(facts({ testRuns: [run(), stale] }))['tests-fresh']?.passed).toBe(false);
    expect(byName(facts({ testRuns: [stale, run()] }))['tests-fresh']?.passed).toBe(true);
    const harnessFail = run({ by: 'harness', exitCode: 1 });
    expect(byName(facts({ testRuns: [harnessFail, run()] }))['tests-passed']?.passed).toBe(false);
  });

  it('gates - disabled gates are not reported', () => {
    const c = config('test:\n  command: npm test\ngates:\n  tests_fresh: false\n  assertions_kept: false\n');
    expect(evaluateGates(facts({ config: c, currentTreeHash: 'other' })).map((g) => g.name)).toEqual(['tests-ran', 'tests-passed']);
  });

  it('gates - repository Stop hooks block by exit 2 and only report errors', () => {
    const blocked = byName(facts({ stopHooks: [{ kind: 'block', hook: 'npm run lint', reason: '3 lint errors' }, { kind: 'continue' }] }))[
      'stop-hooks'
    ];
    expect(blocked).toEqual({ name: 'stop-hooks', passed: false, detail: '`npm run lint` blocked: 3 lint errors' });
    const errored = byName(facts({ stopHooks: [{ kind: 'error', hook: 'x', message: 'exit code 1' }] }))['stop-hooks'];
    expect(errored?.passed).toBe(true);
    expect(errored?.detail).toContain('failed (not blocking)');
    expect(byName(facts())['stop-hooks']).toBeUndefined();
  });

  it('gates - red-green is reported when enabled, from its result', () => {
    const c = config('test:\n  command: npm test\ngates:\n  red_green: true\n');
    expect(byName(facts({ config: c }))['red-green']?.passed).toBe(false);
    const rg = { passed: true, detail: 'failed on the base commit', testFiles: ['test/a.test.js'], failedBefore: true };
    expect(byName(facts({ config: c, redGreen: rg }))['red-green']).toEqual({
      name: 'red-green',
      passed: true,
      detail: 'failed on the base commit',
    });
  });

  it('gates - the message for the model names each failed gate and what to do', () => {
    const gates = evaluateGates(
      facts({
        currentTreeHash: 'b'.repeat(40),
        assertions: { ...kept, passed: false, detail: 'test/a.test.js:3: skip/only marker added' },
      }),
    );
    const msg = stopMessage(gates, 'npm test');
    expect(msg).toContain('- tests-fresh: files changed after the last test run');
    expect(msg).toContain('- assertions-kept: test/a.test.js:3: skip/only marker added');
    expect(msg).not.toContain('tests-ran');
    expect(msg).toContain('run `npm test` again');
    expect(stopMessage(evaluateGates(facts()), 'npm test')).toBe('');
  });
});
