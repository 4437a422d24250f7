/**
 * Issue 27, the pure parts: which base tests the kept run lists as changed expectations (changed,
 * deleted, renamed, skipped) or regressions, how renamed table rows are paired, and how the PR body
 * shows them (at the top, capped, the evidence keeping every one).
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChangedExpectation, TestRun } from '../../src/agent/events.js';
import type { Evidence } from '../../src/agent/evidence/types.js';
import { renderSummaryMd } from '../../src/agent/evidence/summary-md.js';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { deferredToKept } from '../../src/agent/verification/differential/advisory.js';
import { evaluateGates, type GateFacts } from '../../src/agent/verification/gates/gates.js';
import { isRow, judgeBaseTests, parentOf, renamedTo } from '../../src/agent/verification/differential/changed-expectations.js';
import { judgeKept } from '../../src/agent/verification/differential/judge-kept.js';
import { goTestRunner } from '../../src/agent/verification/test-results/runners/go-test.js';
import { baselineOf as baseline, runOf as run, type Outcome } from './run-kit.js';

const F = 'tests/test_spans.py';
const change = { restored: [F], removed: [], packageJson: [] };
/** A test method of SpanTest in F. */
const span = (name: string) => `${F} > SpanTest::${name}`;
/** `[id, outcome]` pairs: a bare name is a SpanTest method of F, an id with ` > ` stands as written. */
const spans = (outcomes: Record<string, Outcome>): Array<[string, Outcome]> =>
  Object.entries(outcomes).map(([name, outcome]) => [name.includes(' > ') ? name : span(name), outcome]);
/** A test in a file the change did not touch. */
const UNTOUCHED = 'other.py > test_untouched';

describe('changed expectations - pairing renamed rows', () => {
  it('parentOf - a Go subtest, a parametrized case, a method, a plain test', () => {
    const parents = {
      'example.com/x > TestMake/case1': 'example.com/x > TestMake',
      't.py > test_x[a/b]': 't.py > test_x',
      't.py > C::test_x': 't.py > C',
      't.py > test_x': 't.py',
      solo: '',
    };
    expect(Object.fromEntries(Object.keys(parents).map((id) => [id, parentOf(id)]))).toEqual(parents);
  });

  it('isRow - only table rows (subtests, parametrized cases) pair as renames', () => {
    const rows = ['example.com/x > TestMake/case1', 't.py > test_x[1]'];
    expect(['example.com/x > TestMake', ...rows, 't.py > C::test_x'].filter((id) => isRow(id))).toEqual(rows);
  });

  it('renamedTo - rows gone and as many new rows under the same test pair in order; otherwise none', () => {
    const gone = ['p > T/a', 'p > T/b', 'p > U/x', 'f.py > C::test_old'];
    const added = ['p > T/one', 'p > T/two', 'p > U/y', 'p > U/z', 'f.py > C::test_new'];
    expect([...renamedTo(gone, added)]).toEqual([
      ['p > T/a', 'p > T/one'],
      ['p > T/b', 'p > T/two'],
    ]);
  });
});

describe('changed expectations - judged from the kept run and the final run', () => {
  const passing = { test_len: 'passed', test_hash: 'passed', test_other: 'passed', test_skip_me: 'passed' } as const;
  const base = baseline(spans({ ...passing, test_other: 'failed', [UNTOUCHED]: 'passed' }));
  const judge = (kept: TestRun, final: TestRun) =>
    judgeBaseTests({ base, kept, final, change, sha: 'abc', stillFailing: new Set(), failureOf: () => 'AssertionError near' });

  it('a deleted test failing under the base tests, a skipped one passing, a regression elsewhere', () => {
    const kept = run(spans({ ...passing, test_hash: 'failed', [UNTOUCHED]: 'failed' }), 'kept');
    const final = run(
      spans({ test_len: 'passed', test_other: 'passed', test_skip_me: 'skipped', test_new: 'passed', [UNTOUCHED]: 'passed' }),
      'final',
    );
    const j = judge(kept, final);
    expect(j.regressions).toEqual([UNTOUCHED]);
    expect(j.changedExpectations).toEqual([
      {
        test: span('test_hash'),
        base: `${F} @ abc`,
        now: 'none (deleted)',
        failure: 'AssertionError near',
        kind: 'deleted',
        outcome: 'failed',
      },
      { test: span('test_skip_me'), base: `${F} @ abc`, now: F, failure: '', kind: 'skipped', outcome: 'passed' },
    ]);
  });

  it('a deleted test that still passes under the base tests is listed too; a deleted test in an unchanged file that fails is a regression', () => {
    const kept = run(spans({ ...passing, [UNTOUCHED]: 'failed' }), 'kept');
    const final = run(spans({ test_len: 'passed', test_other: 'passed', test_skip_me: 'passed' }), 'final');
    const j = judge(kept, final);
    expect(j.changedExpectations.map((c) => [c.test, c.kind, c.outcome])).toEqual([[span('test_hash'), 'deleted', 'passed']]);
    expect(j.regressions).toEqual([UNTOUCHED]);
  });
});

describe('judgeKept - the verdict on deleted tests', () => {
  const base = baseline(spans({ test_hash: 'passed', test_other: 'failed' }));
  const kept = run(spans({ test_hash: 'failed', test_other: 'passed' }), 'kept');
  const final = run(spans({ test_other: 'passed' }), 'final');
  const opts = { base, kept, final, change, output: '', baseSha: 'abcdef0123456789' };

  it('review: passes, the deleted test listed; fail: fails, naming it', () => {
    const review = judgeKept({ ...opts, mode: 'review' });
    expect(review.gate.passed).toBe(true);
    expect(review.gate.detail).toContain('1 changed expectation(s) listed for review (1 were deleted)');
    const fail = judgeKept({ ...opts, mode: 'fail' });
    expect(fail.gate.passed).toBe(false);
    expect(fail.gate.detail).toContain(span('test_hash'));
  });

  it('deleting the failing test does not help: under the base tests it still fails', () => {
    const still = run(spans({ test_hash: 'passed', test_other: 'failed' }), 'kept');
    const j = judgeKept({ ...opts, kept: still, final: run(spans({ test_hash: 'passed' }), 'final'), mode: 'review' });
    expect(j.gate.passed).toBe(false);
    expect(j.stillFailing).toEqual([span('test_other')]);
    expect(j.changedExpectations).toEqual([]);
  });

  it('per-test ids unknown: the tests the final run no longer executes are one changed expectation', () => {
    const noIds = (r: TestRun): TestRun => ({ ...r, tests: [] });
    const j = judgeKept({
      ...opts,
      kept: noIds(run([[`a`, 'passed']], 'kept')),
      final: noIds(final),
      mode: 'fail',
      base: { ...base, tests: [] },
    });
    expect(j.gate.passed).toBe(false);
    expect(j.changedExpectations[0]?.test).toContain('1 base test(s)');
  });
});

describe('judgeKept - the base tests do not build against the new code (the kept run reads no test)', () => {
  const P = 'github.com/x/toml';
  const base = baseline([
    [`${P} > TestDecode`, 'passed'],
    [`${P} > TestEncode`, 'passed'],
  ]);
  const unbuilt: TestRun = {
    ...run([], 'kept'),
    exitCode: 1,
    counts: null,
    tests: [],
    note: 'no test runner output could be read',
  };
  const output = './toml_test.go:303:14: undefined: tomltest.EmbeddedTests\nFAIL\tgithub.com/x/toml [build failed]\n';
  const goChange = { restored: ['toml_test.go'], removed: [], packageJson: [] };
  const opts = {
    base,
    kept: unbuilt,
    final: run(
      [
        [`${P} > TestDecode`, 'passed'],
        [`${P} > TestEncode`, 'passed'],
      ],
      'final',
    ),
    output,
    baseSha: 'abcdef0123456789',
  };

  it('the agent changed the test files (an API the tests call changed): each base test is a changed expectation with the build error; review passes, fail fails', () => {
    const review = judgeKept({ ...opts, change: goChange, mode: 'review' });
    expect(review.gate.passed).toBe(true);
    expect(review.gate.detail).toContain('do not run on the new code (exit 1, no test read)');
    expect(review.changedExpectations.map((c) => c.test)).toEqual([`${P} > TestDecode`, `${P} > TestEncode`]);
    expect(review.changedExpectations[0]).toMatchObject({ kind: 'changed', outcome: 'not run' });
    expect(review.changedExpectations[0]?.failure).toContain('undefined: tomltest.EmbeddedTests');
    expect(judgeKept({ ...opts, change: goChange, mode: 'fail' }).gate.passed).toBe(false);
  });

  it('tests the agent did not change are regressions; a base test that failed there still fails', () => {
    const other = judgeKept({ ...opts, change: { restored: ['other/x_test.go'], removed: [], packageJson: [] }, mode: 'review' });
    expect(other.gate.passed).toBe(false);
    expect(other.regressions).toHaveLength(2);
    expect(other.gate.detail).toContain('no base test ran on the new code');
    const red = baseline([
      [`${P} > TestDecode`, 'failed'],
      [`${P} > TestEncode`, 'passed'],
    ]);
    const j = judgeKept({ ...opts, base: red, change: goChange, mode: 'review' });
    expect(j.gate.passed).toBe(false);
    expect(j.stillFailing).toEqual([`${P} > TestDecode`]);
  });

  it('a changed data or config file explains no build failure: with only that changed, the tests that did not run are regressions', () => {
    for (const restored of [['testdata/case.toml'], ['tests/data/x.toml'], ['.mocharc.yml']]) {
      const j = judgeKept({ ...opts, change: { restored, removed: [], packageJson: [] }, mode: 'review' });
      expect({ restored, passed: j.gate.passed, regressions: j.regressions.length }).toEqual({ restored, passed: false, regressions: 2 });
    }
  });

  it('the kept run as the go runner reads it (the package that did not build is one failed test) is judged the same', () => {
    const read = goTestRunner.parse(output, '/p');
    expect(read?.tests.map((t) => t.id)).toEqual([`${P} > [build failed]`]);
    const kept: TestRun = { ...unbuilt, counts: read?.counts ?? null, tests: read?.tests ?? [] };
    const review = judgeKept({ ...opts, kept, change: goChange, mode: 'review' });
    expect(review.gate.passed).toBe(true);
    expect(review.changedExpectations.map((c) => c.test)).toEqual([`${P} > TestDecode`, `${P} > TestEncode`]);
    expect(review.changedExpectations[0]?.failure).toContain('undefined: tomltest.EmbeddedTests');
    const other = judgeKept({ ...opts, kept, change: { restored: ['other/x_test.go'], removed: [], packageJson: [] }, mode: 'review' });
    expect(other.regressions).toHaveLength(2);
  });

  it('a kept run that exits 0 or is killed with nothing read is not judged: the gate fails', () => {
    for (const exitCode of [0, null]) {
      const j = judgeKept({ ...opts, kept: { ...unbuilt, exitCode }, change: goChange, mode: 'review' });
      expect(j.gate.passed).toBe(false);
      expect(j.gate.detail).toContain('could not be tested');
    }
  });
});

describe('summary.md - changed expectations at the top of the PR body', () => {
  const ev = (list: ChangedExpectation[]): Evidence => ({
    ...(JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/runs/verified/evidence.json'), 'utf8')) as Evidence),
    changedExpectations: list,
  });

  it('deleted, renamed and changed tests are told apart, with the outcome under the base tests', () => {
    const md = renderSummaryMd(
      ev([
        { test: 'a > T/case1', base: 'a @ abc', now: 'a > T/one', failure: '', kind: 'renamed', outcome: 'passed' },
        { test: 'f.py > C::test_hash', base: 'f.py @ abc', now: 'none (deleted)', failure: 'boom', kind: 'deleted', outcome: 'failed' },
        { test: 'old', base: 'x @ abc', now: 'x', failure: 'assert' },
      ]),
    );
    const at = md.indexOf('### Changed expectations (review these)');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(md.indexOf('| Gate'));
    expect(md).toContain("`a > T/case1`: renamed by the change to `a > T/one`; under the base's own tests it passes on the new code");
    expect(md).toContain(
      "`f.py > C::test_hash`: deleted by the change (the final run no longer runs it); under the base's own tests it fails on the new code",
    );
    expect(md).toContain('new: none.');
    expect(md).toContain('`old`: passed on the base and fails on the new code');
  });

  it('a long list is capped in the PR body', () => {
    const many = Array.from({ length: 40 }, (_, i): ChangedExpectation => ({
      test: `p > T/row${i}`,
      base: 'p @ abc',
      now: `p > T/new${i}`,
      failure: '',
      kind: 'renamed',
      outcome: 'passed',
    }));
    const md = renderSummaryMd(ev(many));
    expect(md).toContain('`p > T/row24`');
    expect(md).not.toContain('`p > T/row25`');
    expect(md).toContain('- and 15 more (evidence.json, `changedExpectations`)');
  });
});

describe('deferredToKept - which count gates the kept run decides', () => {
  const cfg = parseRepoConfig('test:\n  command: npm test\n  min_tests: 3\n');
  const agentRun = (passed: number): TestRun => ({
    ...run([], undefined),
    command: 'npm test',
    by: 'agent',
    counts: { passed, failed: 0, skipped: 0, total: passed },
  });
  const facts = (over: Partial<GateFacts>): GateFacts => ({ config: cfg, testRuns: [agentRun(4)], currentTreeHash: 't', ...over });
  const deferred = (f: GateFacts) => [...deferredToKept(f, evaluateGates(f))];

  it('fewer tests than on the base or than an earlier run, and base ids missing: deferred', () => {
    expect(deferred(facts({ baselineExecuted: 5 }))).toEqual(['tests-ran']);
    expect(deferred(facts({ testRuns: [agentRun(6), agentRun(4)] }))).toEqual(['tests-ran']);
    expect(deferred(facts({ testsKept: { passed: false, missing: ['a'], checked: 5 } }))).toEqual(['tests-kept']);
  });

  it('too few tests (test.min_tests) or unreadable counts: not deferred', () => {
    expect(deferred(facts({ testRuns: [agentRun(2)], baselineExecuted: 5 }))).toEqual([]);
    expect(deferred(facts({ testRuns: [{ ...agentRun(0), counts: null }], baselineExecuted: 5 }))).toEqual([]);
  });
});

describe('changed expectations - test data the agent changed', () => {
  it('a Go subtest failing under the base tests after the agent changed a data file under tests/ is a changed expectation, not a regression', () => {
    const base = baseline([['example.com/t > TestToml/valid/a', 'passed']]);
    const kept = run([['example.com/t > TestToml/valid/a', 'failed']], 'kept');
    const data = { restored: ['internal/suite/tests/valid/a.toml'], removed: [], packageJson: [] };
    const code = { restored: ['internal/suite/tests/helper.go'], removed: [], packageJson: [] };
    const judge = (change: typeof data) =>
      judgeBaseTests({ base, kept, final: kept, change, sha: 'abc', stillFailing: new Set(), failureOf: () => '' });
    expect(judge(data).changedExpectations.map((c) => c.kind)).toEqual(['changed']);
    expect(judge(code).regressions).toEqual(['example.com/t > TestToml/valid/a']);
  });
});
