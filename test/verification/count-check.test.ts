/**
 * Counts you can audit (issue 38), the pure parts: each runner's own summary read beside the count
 * (count-check.ts), stdout and stderr read apart (streamsApart), and the summary readers of uvu,
 * node-tap's closing totals and mocha's blocks. The real runners are run in
 * runner-summary-counts.integration.test.ts.
 */
import { describe, expect, it } from '@jest/globals';
import type { TestCounts } from '../../src/agent/events.js';
import type { ObservedCall } from '../../src/agent/verification/test-results/observe/collect-observed.js';
import { evaluateGates } from '../../src/agent/verification/gates/gates.js';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { checkCounts } from '../../src/agent/verification/test-results/observe/count-check.js';
import { countCalls } from '../../src/agent/verification/test-results/observe/count-calls.js';
import { parseMochaSummary } from '../../src/agent/verification/test-results/parsers/mocha.js';
import { parseTapTotals } from '../../src/agent/verification/test-results/parsers/tap-totals.js';
import { parseUvuSummary } from '../../src/agent/verification/test-results/parsers/uvu.js';
import { cargoRunner } from '../../src/agent/verification/test-results/runners/cargo.js';
import { streamsApart } from '../../src/agent/verification/test-runs/harness-run.js';

const c = (passed: number, failed = 0, skipped = 0): TestCounts => ({ passed, failed, skipped, total: passed + failed + skipped });
const call = (runner: string, counts: TestCounts): ObservedCall => ({
  runner,
  source: 'runner-report',
  counts,
  tests: [],
  from: 'x.report',
});
const lines = (text: string) => text.split('\n');

/** A cargo test binary's block on stdout: `n` passing tests. */
const block = (name: string, n: number) =>
  [
    `running ${n} tests`,
    ...Array.from({ length: n }, (_, i) => `test ${name}_${i} ... ok`),
    '',
    `test result: ok. ${n} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s`,
    '',
  ].join('\n');

describe('stdout and stderr are read apart', () => {
  const stdout = [block('unit', 5), block('a', 4), block('b', 4)].join('\n');
  const stderr = [
    '   Compiling calc v0.1.0',
    '     Running unittests src/lib.rs (target/debug/deps/calc-1)',
    '     Running tests/a.rs (target/debug/deps/a-2)',
    '     Running tests/b.rs (target/debug/deps/b-3)',
    '',
  ].join('\n');
  // What two pipes read together can give: a target line of stderr inside a block of stdout.
  const interleaved = stdout.replace('test a_1 ... ok\n', 'test a_1 ... ok\n     Running tests/b.rs (target/debug/deps/b-3)\n');

  it('the interleaved output cuts a block (the miscount seen: 3 of 54), the streams apart count every test under its own target', () => {
    expect(cargoRunner.parse(`${stderr}${interleaved}`, '/')?.counts.total).toBeLessThan(13);
    const apart = cargoRunner.parse(streamsApart({ exitCode: 0, output: interleaved, stdout, stderr }), '/');
    expect(apart?.counts).toEqual(c(13));
    expect(apart?.tests.filter((t) => t.id.startsWith('tests/a.rs > ')).map((t) => t.id)).toEqual(
      ['a_0', 'a_1', 'a_2', 'a_3'].map((n) => `tests/a.rs > ${n}`),
    );
  });

  it('an exec that keeps no streams gives the interleaved output; a command that merges them (2>&1) keeps its own order in stdout', () => {
    expect(streamsApart({ exitCode: 0, output: 'all', stdout: '', stderr: '' })).toBe('all');
    expect(streamsApart({ exitCode: 0, output: 'x', stdout: 'merged', stderr: '' })).toBe('merged');
    expect(streamsApart({ exitCode: 0, output: 'x', stdout: 'out', stderr: 'err' })).toBe('err\nout');
  });
});

describe("each runner's count held against its own summary", () => {
  it('agreeing counts: a check per runner that printed a summary, none for one that did not', () => {
    const text = lines('  3 passing (5ms)\n  1 pending\n');
    expect(checkCounts([call('mocha', c(3, 0, 1)), call('jest', c(9))], text)).toEqual([
      { runner: 'mocha', counted: c(3, 0, 1), summary: c(3, 0, 1), agree: true },
    ]);
  });

  it('a disagreement: counts unknown, both named in the note and the checks', () => {
    const counted = countCalls([call('mocha', c(9, 0, 1))], new Set(), '\n  10 passing (12ms)\n  1 pending\n');
    expect(counted.counts).toBeNull();
    expect(counted.source).toBe('none');
    expect(counted.checks).toEqual([{ runner: 'mocha', counted: c(9, 0, 1), summary: c(10, 0, 1), agree: false }]);
    expect(counted.note).toContain(
      'mocha was counted 9 passed, 0 failed, 1 skipped but its own summary says 10 passed, 0 failed, 1 skipped',
    );
  });

  it('cargo: the `test result:` lines of every target summed; a binary that died without one leaves nothing to compare', () => {
    const full = lines([block('unit', 2), block('a', 3)].join('\n'));
    expect(checkCounts([call('cargo', c(5))], full)).toEqual([{ runner: 'cargo', counted: c(5), summary: c(5), agree: true }]);
    const died = lines(`${block('unit', 2)}\nrunning 3 tests\ntest a_0 ... ok\n`);
    expect(checkCounts([call('cargo', c(3))], died)).toEqual([]);
  });

  it('uvu: where no observer reads anything, its summary is the count (summary-line), summed over its processes', () => {
    const out = '\n  Total:     5\n  Passed:    4\n  Skipped:   1\n  Duration:  1ms\n\n  Total:     2\n  Passed:    2\n  Skipped:   0\n';
    expect(parseUvuSummary(lines(out))?.counts).toEqual(c(6, 1, 1));
    const counted = countCalls([], new Set(['uvu']), out);
    expect(counted).toMatchObject({ counts: c(6, 1, 1), source: 'summary-line', calls: [{ runner: 'uvu', from: 'output' }] });
    expect(counted.note).toBeUndefined();
  });
});

describe('summary readers', () => {
  it("node-tap's closing totals: the unindented line (a test's printed one is inside its file's block), tap 18+ and JSON keys", () => {
    const out = [
      '    # { total: 999, pass: 999 }',
      'ok 1 - test/a.js',
      '# { total: 10, pass: 7, fail: 1, skip: 1, todo: 1 }',
      '# time=5ms',
    ];
    expect(parseTapTotals(out)?.counts).toEqual(c(7, 1, 2));
    expect(parseTapTotals(['# {"total":3,"pass":2,"fail":1}'])?.counts).toEqual(c(2, 1));
    expect(parseTapTotals(['    # { total: 3, pass: 3 }'])).toBeUndefined();
  });

  it('mocha: the last block, or the last k blocks for k calls', () => {
    const out = lines('  99 passing (1ms)\n      ✔ prints\n\n  2 passing (3ms)\n  1 failing\n\n  4 passing (2ms)\n');
    expect(parseMochaSummary(out)?.counts).toEqual(c(4));
    expect(parseMochaSummary(out, 2)?.counts).toEqual(c(6, 1));
  });
});

describe('gate tests-ran on a count that is not trusted', () => {
  it('says why: the count disagrees with the runner’s own summary, both named (not "configure test.report")', () => {
    const counts = c(1);
    const summary = c(3);
    const note =
      'node-tap was counted 1 passed, 0 failed, 0 skipped but its own summary says 3 passed, 0 failed, 0 skipped: the count is not trusted';
    const gates = evaluateGates({
      config: parseRepoConfig('test:\n  command: npm test\n'),
      currentTreeHash: 't',
      testRuns: [
        {
          command: 'npm test',
          exitCode: 0,
          startedAt: '',
          endedAt: '',
          treeHash: 't',
          counts: null,
          source: 'none',
          by: 'harness',
          kind: 'final',
          note,
          countCheck: [{ runner: 'node-tap', counted: counts, summary, agree: false }],
        },
      ],
    });
    const ran = gates.find((g) => g.name === 'tests-ran');
    expect(ran?.passed).toBe(false);
    expect(ran?.detail).toBe(`the count of \`npm test\` is not trusted: ${note}`);
  });
});
