import { describe, expect, it } from '@jest/globals';
import type { TestCase, TestRun } from '../../src/agent/events.js';
import { judgeNotFewer, missingTests, NOT_FEWER_GATE } from '../../src/agent/verification/gates/tests-not-fewer.js';
import type { Baseline } from '../../src/agent/verification/test-runs/baseline.js';

const passed = (...ids: string[]): TestCase[] => ids.map((id) => ({ id, outcome: 'passed', file: id.split(' > ')[0] ?? '' }));

function run(tests: TestCase[], over: Partial<TestRun> = {}): TestRun {
  const n = tests.filter((t) => t.outcome !== 'skipped').length;
  return {
    command: 'npm test',
    exitCode: 0,
    startedAt: '',
    endedAt: '',
    treeHash: 't',
    counts: { passed: n, failed: 0, skipped: 0, total: n },
    source: 'runner-report',
    by: 'harness',
    kind: 'final',
    tests,
    ...over,
  };
}

function baseline(tests: TestCase[]): Baseline {
  const r = run(tests, { kind: 'baseline' });
  return { run: r, counts: r.counts, executed: r.counts?.total ?? 0, tests, failingIds: [], countsKnown: true };
}

const BASE = passed('a.test.js > one', 'a.test.js > two', 'b.test.js > three', 'b.test.js > four');

describe('gate tests-not-fewer: the final run executes no fewer tests than the base commit', () => {
  it('as many or more: passes, naming both counts', () => {
    const g = judgeNotFewer(baseline(BASE), run([...BASE, ...passed('c.test.js > new')]));
    expect(g).toEqual({ name: NOT_FEWER_GATE, passed: true, detail: '`npm test` executed 5 test(s) on the commit, 4 on the base commit' });
  });

  it('fewer, in files the change did not touch (a narrowed runner config, a miscount): fails, naming the tests', () => {
    const final = run(passed('a.test.js > one', 'a.test.js > two'));
    const g = judgeNotFewer(
      baseline(BASE),
      final,
      missingTests(baseline(BASE), final, () => false),
    );
    expect(g?.passed).toBe(false);
    expect(g?.detail).toContain('2 fewer than the 4 it executed on the base commit');
    expect(g?.detail).toContain('b.test.js > three, b.test.js > four did not run');
  });

  it('fewer because the change deleted or edited their test file: passes, the kept run judges them', () => {
    const final = run(passed('a.test.js > one', 'a.test.js > two'));
    const touched = (t: TestCase) => t.file === 'b.test.js';
    const g = judgeNotFewer(baseline(BASE), final, missingTests(baseline(BASE), final, touched));
    expect(g?.passed).toBe(true);
    expect(g?.detail).toContain('2 base test(s) whose file the change deleted or edited are gone (b.test.js > three, b.test.js > four)');
  });

  it('counts cut short with every id present (the count, not the ids, fell): fails', () => {
    const final = run(BASE, { counts: { passed: 3, failed: 0, skipped: 0, total: 3 } });
    const g = judgeNotFewer(
      baseline(BASE),
      final,
      missingTests(baseline(BASE), final, () => true),
    );
    expect(g?.passed).toBe(false);
  });

  it('a runner that counts assertions (node-tap): fewer assertions in an edited test file pass; with an untouched test gone they fail', () => {
    const base = baseline(BASE);
    base.executed = 9;
    const final = run(BASE, { counts: { passed: 7, failed: 0, skipped: 0, total: 7 } });
    const edited = (t: TestCase) => t.file === 'a.test.js';
    expect(judgeNotFewer(base, final, missingTests(base, final, edited))?.passed).toBe(true);
    const lost = run(BASE.slice(0, 3), { counts: { passed: 7, failed: 0, skipped: 0, total: 7 } });
    expect(judgeNotFewer(base, lost, missingTests(base, lost, edited))?.passed).toBe(false);
  });

  it('nothing to compare: an agent run, unknown counts, another command', () => {
    const base = baseline(BASE);
    expect(judgeNotFewer(base, run([], { by: 'agent' }))).toBeUndefined();
    expect(judgeNotFewer(base, run([], { counts: null }))).toBeUndefined();
    expect(judgeNotFewer(base, run([], { command: 'npm test -- a' }))).toBeUndefined();
    expect(judgeNotFewer({ ...base, countsKnown: false }, run([]))).toBeUndefined();
  });
});
