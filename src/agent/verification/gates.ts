import type { RepoConfig } from '../../config/repo-config.js';
import type { GateResult, TestRun } from '../events.js';
import type { HookOutcome } from '../hooks/types.js';
import type { AssertionsResult } from './assertions.js';
import type { RedGreenResult } from './red-green.js';

export interface GateFacts {
  config: Pick<RepoConfig, 'gates' | 'test'>;
  /** Every test run so far, in order (agent runs and harness runs). */
  testRuns: readonly TestRun[];
  currentTreeHash: string;
  /** Needed when gates.assertions_kept is on (missing = the gate fails saying it was not checked). */
  assertions?: AssertionsResult;
  /** Outcomes of the repository's Stop hooks; undefined when it has none (no stop-hooks gate). */
  stopHooks?: readonly HookOutcome[];
  /** Needed when gates.red_green is on. */
  redGreen?: RedGreenResult;
}

/** The run the gates judge: the last harness run (the final run) when there is one, else the last run. */
export function runThatCounts(runs: readonly TestRun[]): TestRun | undefined {
  const harness = runs.filter((r) => r.by === 'harness');
  return harness[harness.length - 1] ?? runs[runs.length - 1];
}

const describe = (r: TestRun): string => {
  const c = r.counts;
  return c ? `${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped of ${c.total}` : 'counts unknown';
};

/** Evaluates every enabled gate over facts the harness observed (pure: no I/O). */
export function evaluateGates(facts: GateFacts): GateResult[] {
  const { gates, test } = facts.config;
  const cmd = test.command;
  const run = runThatCounts(facts.testRuns);
  const out: GateResult[] = [];
  const gate = (name: string, passed: boolean, detail: string) => out.push({ name, passed, detail });
  const missing = (name: string) => `\`test.command\` is missing in .github/proofpr.yml (needed by gate ${name})`;

  const testGate = (name: string, judge: (r: TestRun, cmd: string) => GateResult | undefined, noRun: string) => {
    if (cmd === undefined) return gate(name, false, missing(name));
    if (run === undefined) return gate(name, false, `no test run: ${noRun}`);
    const r = judge(run, cmd);
    if (r) out.push(r);
  };

  if (gates.tests_ran) {
    testGate('tests-ran', (r) => {
      if (!r.counts) return { name: 'tests-ran', passed: false, detail: `couldn't read test counts from the output; configure test.report (JUnit XML or Jest/Vitest JSON) so \`${r.command}\` can be counted` };
      const executed = r.counts.passed + r.counts.failed;
      if (executed >= test.min_tests) return { name: 'tests-ran', passed: true, detail: `${executed} test(s) executed by \`${r.command}\` (${describe(r)})` };
      return { name: 'tests-ran', passed: false, detail: `${executed} test(s) executed by \`${r.command}\`, at least ${test.min_tests} needed (${describe(r)}): run the tests without a filter that leaves them out` };
    }, `run \`${cmd ?? ''}\` before finishing`);
  }
  if (gates.tests_passed) {
    testGate('tests-passed', (r, c) => {
      const failed = r.counts?.failed ?? 0;
      if (r.exitCode === 0 && failed === 0) return { name: 'tests-passed', passed: true, detail: `\`${r.command}\` exited 0 (${describe(r)})` };
      const how = r.exitCode === null ? 'did not finish (timed out or killed)' : `exited with code ${r.exitCode}`;
      return { name: 'tests-passed', passed: false, detail: `\`${r.command}\` ${how} (${describe(r)}): fix the failures and run \`${c}\` again` };
    }, `run \`${cmd ?? ''}\` and make it pass`);
  }
  if (gates.tests_fresh) {
    testGate('tests-fresh', (r, c) => {
      if (r.treeHash === facts.currentTreeHash) return { name: 'tests-fresh', passed: true, detail: `the last test run saw the current files (tree ${r.treeHash.slice(0, 12)})` };
      return { name: 'tests-fresh', passed: false, detail: `files changed after the last test run: run the tests again (\`${c}\`)` };
    }, `run \`${cmd ?? ''}\` on the final files`);
  }
  if (gates.assertions_kept) {
    const a = facts.assertions;
    if (!a) gate('assertions-kept', false, 'the test files were not checked');
    else if (a.passed) gate('assertions-kept', true, a.detail);
    else gate('assertions-kept', false, `${a.detail}\nRestore the removed assertions, skip markers and test files: change the code under test, not the tests that judge it.`);
  }
  if (gates.red_green) {
    const rg = facts.redGreen;
    if (!rg) gate('red-green', false, 'red-green was not checked');
    else gate('red-green', rg.passed, rg.detail);
  }
  if (facts.stopHooks !== undefined) {
    const blocks = facts.stopHooks.flatMap((o) => (o.kind === 'block' ? [`\`${o.hook}\` blocked: ${o.reason}`] : []));
    const errors = facts.stopHooks.flatMap((o) => (o.kind === 'error' ? [`\`${o.hook}\` failed (not blocking): ${o.message}`] : []));
    const ok = blocks.length === 0;
    gate('stop-hooks', ok, [...blocks, ...errors].join('\n') || "the repository's Stop hooks passed");
  }
  return out;
}
