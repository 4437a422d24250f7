/**
 * What blocked a miss, and the setting that fixes it. A miss is a fix pass that was not verified or a
 * test-only pass that was. Read from the evidence: the reason sentence and the failed gates.
 */
import type { Blocker } from './types.js';

const GATE_FIX: ReadonlyArray<[gate: string, fix: string]> = [
  [
    'tests-ran',
    "test.report: the runner's JUnit XML or Jest/Vitest JSON report in .github/proofpr.yml, or test.command: one runner call proofpr counts",
  ],
  ['tests-kept-base', 'gates.changed_tests: review (a base test whose expectation the fix changed is listed, not failed)'],
  ['assertions-kept', 'gates.test_changes_allowed: the globs of test support files the change may edit'],
  ['test-config-kept', 'permissions.writable / gates.test_changes_allowed for the test configuration the change edits'],
  ['tests-fresh', 'gates.final_run: true (the harness reruns the tests on the exact commit)'],
  [
    'tests-passed',
    "test.command and setup.command: the tests must pass at the fix in proofpr's clean checkout (no network, read-only outside the worktree)",
  ],
];

function notReadyFix(reason: string): string {
  if (/no test command/i.test(reason)) return 'test.command in .github/proofpr.yml';
  if (/setup/i.test(reason)) return 'setup.command in .github/proofpr.yml (the install the tests need)';
  if (/count|report/i.test(reason)) return GATE_FIX[0]![1];
  return 'test.command and setup.command in .github/proofpr.yml: the base run must pass and be counted';
}

/** The blocker of a fix pass that was not verified. */
export function fixBlocker(verdict: string, reason: string, failedGates: readonly string[]): Blocker | undefined {
  if (verdict === 'verified') return undefined;
  if (verdict === 'aborted') return { what: reason, fix: 'max_turns, max_cost_usd or timeout_min in .github/proofpr.yml' };
  if (/^not ready/i.test(reason)) return { what: reason, fix: notReadyFix(reason) };
  const hit = GATE_FIX.find(([g]) => failedGates.includes(g));
  const what = failedGates.length ? `gates failed: ${failedGates.join(', ')} (${reason})` : reason;
  return { what, fix: hit?.[1] ?? "see the run folder's report.html for the gate that failed" };
}

/** The blocker of a test-only pass that was verified (the test change alone should be refused). */
export function testOnlyBlocker(verdict: string, reason: string): Blocker | undefined {
  if (verdict !== 'verified') return undefined;
  return {
    what: `the test change alone was verified (${reason}): its new tests did not fail in the harness's runs`,
    fix: 'test.command must run the changed test files (and test.report name their report when the runner is not observed)',
  };
}
