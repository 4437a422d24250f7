/** Test runs and baselines built from `[id, outcome]` pairs, for the judgement tests. */
import type { TestCase, TestRun } from '../../src/agent/events.js';
import type { Baseline } from '../../src/agent/verification/test-runs/baseline.js';

export type Outcome = TestCase['outcome'];

/** A test case; an id `file > name` carries its file. */
export const tc = (id: string, outcome: Outcome): TestCase => ({
  id,
  outcome,
  ...(id.includes(' > ') ? { file: id.split(' > ')[0] } : {}),
});

/** A harness run of `go test ./...` reading these tests, its counts and exit status from them. */
export function runOf(tests: Array<[string, Outcome]>, kind: TestRun['kind'] = 'final'): TestRun {
  const cases = tests.map(([id, o]) => tc(id, o));
  const n = (o: Outcome) => cases.filter((t) => t.outcome === o).length;
  return {
    command: 'go test ./...',
    exitCode: n('failed') ? 1 : 0,
    startedAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:00:01.000Z',
    treeHash: 't',
    counts: { passed: n('passed'), failed: n('failed'), skipped: n('skipped'), total: cases.length },
    source: 'runner-report',
    by: 'harness',
    kind,
    tests: cases,
  };
}

/** The baseline of a base commit whose run read these tests. */
export function baselineOf(tests: Array<[string, Outcome]>): Baseline {
  const r = runOf(tests, 'baseline');
  const cases = r.tests ?? [];
  return {
    run: r,
    counts: r.counts,
    executed: cases.filter((t) => t.outcome !== 'skipped').length,
    tests: cases,
    failingIds: cases.filter((t) => t.outcome === 'failed').map((t) => t.id),
    countsKnown: true,
  };
}
