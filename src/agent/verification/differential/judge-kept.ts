import type { ChangedExpectation, GateResult, TestRun } from '../../events.js';
import type { Baseline } from '../test-runs/baseline.js';
import { stripAnsi } from '../test-results/parse-test-output.js';
import { listIds } from '../test-results/test-outcomes.js';
import { onlyNotBuilt, passesIn } from '../test-results/unbuilt.js';
import { judgeBaseTests } from './changed-expectations.js';
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

/** How many base tests the final run no longer executes, when neither run names its tests. */
function droppedWithoutIds(base: Baseline, final: TestRun | undefined): number {
  const executed = final?.counts ? final.counts.passed + final.counts.failed : undefined;
  return base.countsKnown && executed !== undefined ? Math.max(0, base.executed - executed) : 0;
}

/** The judgement when per-test ids are unknown: the base's tests must pass on the new code, as a whole. */
function judgeWithoutIds(o: KeptInput, sha: string): KeptJudgement {
  const { kept } = o;
  const none = { changedExpectations: [], stillFailing: [], regressions: [] };
  if (kept.exitCode !== 0 || (kept.counts?.failed ?? 0) > 0)
    return {
      gate: {
        name: KEPT_GATE,
        passed: false,
        detail: `the base commit ${sha}'s tests fail on the new code (exit ${kept.exitCode ?? 'none'}, ${kept.counts?.failed ?? 0} failed): the change passes only with the agent's version of the tests`,
      },
      ...none,
    };
  const dropped = droppedWithoutIds(o.base, o.final);
  const changedExpectations: ChangedExpectation[] = dropped
    ? [
        {
          test: `${dropped} base test(s) the final run no longer executes (per-test ids not reported)`,
          base: `the test files @ ${sha}`,
          now: 'none (deleted or renamed)',
          failure: '',
          kind: 'deleted',
          outcome: 'passed',
        },
      ]
    : [];
  const failMode = dropped > 0 && o.mode === 'fail';
  const detail = failMode
    ? `${dropped} base test(s) are no longer executed by the agent's tests (gates.changed_tests: fail)`
    : `the base commit ${sha}'s tests pass on the new code (${kept.counts?.passed ?? 0} passed; per-test ids not reported)${dropped ? `; ${dropped} base test(s) no longer executed by the agent's tests listed for review` : ''}`;
  // Base tests no longer executed, listed for review: found, not blocking (advisory).
  const advisory = !failMode && changedExpectations.length > 0 ? { advisory: true as const } : {};
  return { gate: { name: KEPT_GATE, passed: !failMode, detail, ...advisory }, ...none, changedExpectations };
}

interface KeptInput {
  base: Baseline;
  kept: TestRun;
  /** The final run of the commit: which base tests the agent's tests no longer execute. */
  final?: TestRun;
  change: HarnessChange;
  output: string;
  mode: 'review' | 'fail';
  baseSha: string;
}

const KIND_WORD: Record<NonNullable<ChangedExpectation['kind']>, string> = {
  changed: 'needed a changed expectation',
  deleted: 'were deleted',
  renamed: 'were renamed',
  skipped: 'were skipped',
};

/** "3 needed a changed expectation, 1 were deleted": the changed expectations by kind. */
function byKind(list: readonly ChangedExpectation[]): string {
  const n = new Map<string, number>();
  for (const c of list) n.set(c.kind ?? 'changed', (n.get(c.kind ?? 'changed') ?? 0) + 1);
  return [...n].map(([k, v]) => `${v} ${KIND_WORD[k as keyof typeof KIND_WORD]}`).join(', ');
}

/**
 * The maintainer's tests judge the agent's code. Under the base commit's test harness (the kept run):
 * every test that failed on the base must pass — else the change passes only with the agent's version
 * of the tests; every base test that passed there must still pass, unless the agent changed that test
 * (a changed expectation: listed for review, or failing the gate with `gates.changed_tests: fail`).
 * A base test the agent's tests no longer execute (deleted, renamed, skipped) is a changed expectation
 * too, whatever its outcome under the base's harness. A base test that now fails and that the agent did
 * not change is a regression.
 */
export function judgeKept(opts: KeptInput): KeptJudgement {
  const { base, kept } = opts;
  const sha = opts.baseSha.slice(0, 12);
  // The kept run failed and read no test at all, or only units that did not build (the base's tests do
  // not build against the new code): with the base's ids, every base test did not run there, and each
  // is judged as one that fails. A run that exits 0 (or is killed) with nothing read stays unjudgeable.
  const nothingRan = kept.counts === null || onlyNotBuilt(kept.tests);
  const buildFailed = nothingRan && kept.exitCode !== null && kept.exitCode !== 0;
  if (buildFailed && base.tests.length > 0) return judgeById(opts, sha, notRunWhy(opts.output, kept.note));
  if (kept.counts === null)
    return {
      gate: {
        name: KEPT_GATE,
        passed: false,
        detail: `the commit's code could not be tested under the base commit ${sha}'s tests: ${kept.note ?? 'no counts'}`,
      },
      changedExpectations: [],
      stillFailing: [],
      regressions: [],
    };
  if (!(base.tests.length > 0 && (kept.tests?.length ?? 0) > 0)) return judgeWithoutIds(opts, sha);
  return judgeById(opts, sha);
}

/** The first lines of a kept run that read no test (a compile error), for each base test it did not run. */
function notRunWhy(output: string, note: string | undefined): string {
  const head = stripAnsi(output)
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .filter((l) => l.trim())
    .slice(0, 12)
    .join('\n')
    .slice(0, 1500);
  return `did not run: the base's tests could not run on the new code${head ? `:\n${head}` : note ? ` (${note})` : ''}`;
}

/** The judgement by test id: `notRun` set when the kept run read no test (every base test did not run). */
function judgeById(opts: KeptInput, sha: string, notRun?: string): KeptJudgement {
  const { base, kept } = opts;
  const stillFailing = base.failingIds.filter((id) => !passesIn(kept, id));
  const { changedExpectations, regressions } = judgeBaseTests({
    base,
    kept,
    ...(opts.final ? { final: opts.final } : {}),
    change: opts.change,
    sha,
    stillFailing: new Set(stillFailing),
    failureOf: (id) => failureNear(opts.output, id),
    ...(notRun ? { notRun } : {}),
  });
  const parts: string[] = [];
  if (stillFailing.length)
    parts.push(
      `${stillFailing.length} test(s) that failed on the base commit ${sha} still fail under its own tests: ${listIds(stillFailing)} (the change passes only with the agent's version of the tests; fix the code, not the test)`,
    );
  if (regressions.length)
    parts.push(
      `${regressions.length} base test(s) passed on ${sha} and fail on the new code, unchanged by the agent: ${listIds(regressions)}`,
    );
  if (notRun && parts.length) parts.push(`no base test ran on the new code: ${kept.note ?? 'no counts'}`);
  if (changedExpectations.length && opts.mode === 'fail')
    parts.push(
      `${changedExpectations.length} base test(s) changed by the agent (${byKind(changedExpectations)}; gates.changed_tests: fail): ${listIds(changedExpectations.map((c) => c.test))}`,
    );
  const passed = parts.length === 0;
  const fixed = base.failingIds.length;
  const detail = passed
    ? notRun
      ? `the base commit ${sha}'s tests do not run on the new code (exit ${kept.exitCode ?? 'none'}, no test read), and the agent changed the test file of every one of them: ${changedExpectations.length} changed expectation(s) listed for review`
      : `under the base commit ${sha}'s own tests the new code passes: ${fixed ? `${fixed} test(s) that failed there pass, ` : ''}${kept.counts?.passed ?? 0} passed${changedExpectations.length ? `; ${changedExpectations.length} changed expectation(s) listed for review (${byKind(changedExpectations)})` : ''}`
    : parts.join('; ');
  // Changed expectations listed for review: found, not blocking (advisory).
  const advisory = passed && changedExpectations.length > 0 ? { advisory: true as const } : {};
  return { gate: { name: KEPT_GATE, passed, detail, ...advisory }, changedExpectations, stillFailing, regressions };
}
