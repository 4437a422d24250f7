import type { ChangedExpectation, GateResult, TestCase, TestRun } from '../../events.js';
import type { Baseline } from '../test-runs/baseline.js';
import { stripAnsi } from '../test-results/parse-test-output.js';
import { listIds } from '../test-results/test-outcomes.js';
import type { HarnessChange } from './kept-run.js';

export interface KeptJudgement {
  gate: GateResult;
  changedExpectations: ChangedExpectation[];
  /** Base tests that failed there and still fail (or did not run) under the base's harness. */
  stillFailing: string[];
  /** Base tests that passed there and fail under the base's harness although the agent did not change them. */
  regressions: string[];
}

export const KEPT_GATE = 'tests-kept-base';

/** The file a test id belongs to: its report's file, else the `file > name` prefix. */
function fileOf(t: TestCase): string | undefined {
  if (t.file) return t.file;
  const at = t.id.indexOf(' > ');
  return at > 0 ? t.id.slice(0, at) : undefined;
}

/** A test-data path (fixture, golden file, snapshot) rather than test code: any test may read it. */
const DATA = /(?:^|\/)(?:fixtures?|__fixtures__|testdata|__snapshots__|snapshots)\/|\.snap$/i;
const dirOf = (p: string): string => p.split('/').slice(0, -1).join('/');

/**
 * Whether the agent changed what this base test checks: its own file, or test data (fixtures, golden
 * files, snapshots) it may read. Go reports no file: its ids are `<import path> > TestX`, matched by a
 * changed path in the folder that import path ends with (its `_test.go` files, its `testdata/`). A
 * runner that names no file at all (node:test's junit): any harness path the agent changed may hold it.
 */
function changedByAgent(t: TestCase, change: HarnessChange): boolean {
  const touched = [...change.restored, ...change.removed];
  const file = fileOf(t);
  if (file === undefined) return touched.length > 0;
  if (touched.includes(file) || touched.some((p) => DATA.test(p))) return true;
  return touched.some((p) => {
    const dir = dirOf(p).replace(/\/testdata(?:\/.*)?$/, '');
    return p.endsWith('_test.go') || p.includes('testdata/') ? dir === '' || file === dir || file.endsWith(`/${dir}`) : false;
  });
}

const FAILURE_WORD = /fail|error|assert|expect|✗|✕|×|not ok/i;
const COUNT_LINE = /^\s*\d+ (?:passing|failing|passed|failed|pending|skipped)\b/i;

/**
 * The names a test may be printed under: its id's last part, then that part without leading words
 * (mocha prints `describe` titles on their own lines), then a `Class::method` id's method (unittest
 * prints `FAIL: method (module.Class.method)`).
 */
function printedNames(id: string): string[] {
  const last = id.split(' > ').pop() ?? id;
  const words = last.split(' ');
  const out: string[] = [last];
  for (let i = 1; i <= words.length - 2; i++) out.push(words.slice(i).join(' '));
  const method = last.split('::').pop() ?? last;
  if (method !== last && method.length > 0) out.push(method);
  return out;
}

/** How much the 6 lines from `at` look like a failure report (runner count lines do not count). */
const failureScore = (lines: readonly string[], at: number): number =>
  lines.slice(at, at + 6).filter((l) => FAILURE_WORD.test(l) && !COUNT_LINE.test(l)).length;

/**
 * The kept run's output around a test's name (at most 12 lines, colours stripped), for the reviewer:
 * of the lines that print the name, the one whose neighbourhood reads most like a failure (the
 * earliest on a tie).
 */
export function failureNear(output: string, id: string): string {
  const lines = stripAnsi(output).replace(/\r\n?/g, '\n').split('\n');
  for (const name of printedNames(id)) {
    let best = -1;
    let bestScore = -1;
    lines.forEach((l, i) => {
      if (!l.includes(name)) return;
      const score = failureScore(lines, i);
      if (score > bestScore) [best, bestScore] = [i, score];
    });
    if (best >= 0)
      return lines
        .slice(best, best + 12)
        .join('\n')
        .slice(0, 1500);
  }
  return '';
}

/**
 * The maintainer's tests judge the agent's code. Under the base commit's test harness (the kept run):
 * every test that failed on the base must pass — else the change passes only with the agent's version
 * of the tests; every base test that passed there must still pass, unless the agent changed that test
 * (a changed expectation: listed for review, or failing the gate with `gates.changed_tests: fail`).
 * A base test that now fails and that the agent did not change is a regression.
 */
export function judgeKept(opts: {
  base: Baseline;
  kept: TestRun;
  change: HarnessChange;
  output: string;
  mode: 'review' | 'fail';
  baseSha: string;
}): KeptJudgement {
  const { base, kept, change } = opts;
  const sha = opts.baseSha.slice(0, 12);
  const fail = (detail: string, extra: Partial<KeptJudgement> = {}): KeptJudgement => ({
    gate: { name: KEPT_GATE, passed: false, detail },
    changedExpectations: [],
    stillFailing: [],
    regressions: [],
    ...extra,
  });
  if (kept.counts === null)
    return fail(`the commit's code could not be tested under the base commit ${sha}'s tests: ${kept.note ?? 'no counts'}`);
  const outcome = new Map((kept.tests ?? []).map((t) => [t.id, t.outcome]));
  const idsKnown = base.tests.length > 0 && (kept.tests?.length ?? 0) > 0;
  if (!idsKnown) {
    if (kept.exitCode === 0 && kept.counts.failed === 0)
      return {
        gate: {
          name: KEPT_GATE,
          passed: true,
          detail: `the base commit ${sha}'s tests pass on the new code (${kept.counts.passed} passed; per-test ids not reported)`,
        },
        changedExpectations: [],
        stillFailing: [],
        regressions: [],
      };
    return fail(
      `the base commit ${sha}'s tests fail on the new code (exit ${kept.exitCode ?? 'none'}, ${kept.counts.failed} failed): the change passes only with the agent's version of the tests`,
    );
  }
  const stillFailing = base.failingIds.filter((id) => outcome.get(id) !== 'passed');
  const changedExpectations: ChangedExpectation[] = [];
  const regressions: string[] = [];
  for (const t of base.tests) {
    if (t.outcome !== 'passed' || outcome.get(t.id) === 'passed' || outcome.get(t.id) === 'skipped') continue;
    if (changedByAgent(t, change)) {
      const file = fileOf(t) ?? [...change.restored, ...change.removed].join(', ');
      changedExpectations.push({
        test: t.id,
        base: `${file} @ ${sha}`,
        now: file,
        failure: failureNear(opts.output, t.id) || (outcome.has(t.id) ? 'failed' : 'did not run'),
      });
    } else regressions.push(t.id);
  }
  const parts: string[] = [];
  if (stillFailing.length)
    parts.push(
      `${stillFailing.length} test(s) that failed on the base commit ${sha} still fail under its own tests: ${listIds(stillFailing)} (the change passes only with the agent's version of the tests; fix the code, not the test)`,
    );
  if (regressions.length)
    parts.push(
      `${regressions.length} base test(s) passed on ${sha} and fail on the new code, unchanged by the agent: ${listIds(regressions)}`,
    );
  if (changedExpectations.length && opts.mode === 'fail')
    parts.push(
      `${changedExpectations.length} base test(s) needed a changed expectation (gates.changed_tests: fail): ${listIds(changedExpectations.map((c) => c.test))}`,
    );
  const passed = parts.length === 0;
  const fixed = base.failingIds.length;
  const detail = passed
    ? `under the base commit ${sha}'s own tests the new code passes: ${fixed ? `${fixed} test(s) that failed there pass, ` : ''}${kept.counts.passed} passed${changedExpectations.length ? `; ${changedExpectations.length} changed expectation(s) listed for review` : ''}`
    : parts.join('; ');
  return { gate: { name: KEPT_GATE, passed, detail }, changedExpectations, stillFailing, regressions };
}
