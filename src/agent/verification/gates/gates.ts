import type { RunSettings } from '../../settings.js';
import type { GateResult, TestRun } from '../../events.js';
import type { HookOutcome } from '../../hooks/types.js';
import type { AssertionsResult } from '../integrity/assertions.js';
import type { RedGreenResult } from './red-green.js';
import { RUNNERS } from '../test-results/runners/index.js';
import type { TestConfigResult } from '../integrity/test-config.js';

export interface GateFacts {
  config: Pick<RunSettings, 'gates' | 'test'>;
  /** Every test run so far, in order (agent runs and harness runs). */
  testRuns: readonly TestRun[];
  currentTreeHash: string;
  /** Needed when gates.assertions_kept is on (missing = the gate fails saying it was not checked). */
  assertions?: AssertionsResult;
  /** Outcomes of the repository's Stop hooks; undefined when it has none (no stop-hooks gate). */
  stopHooks?: readonly HookOutcome[];
  /** Needed when gates.red_green is on. */
  redGreen?: RedGreenResult;
  /** Needed when gates.assertions_kept is on (gate test-config-kept; missing = it fails as not checked). */
  testConfig?: TestConfigResult;
  /** Tests executed by `test.command` on the base commit, when known: tests-ran needs at least as many. */
  baselineExecuted?: number;
  /** Tests executed on the base that the final run must execute too (per-test ids; gate tests-kept). */
  testsKept?: { passed: boolean; missing: readonly string[]; checked: number };
  /** Set when the worktree could not be hashed (currentTreeHash is then meaningless): tests-fresh fails. */
  hashError?: string;
  /** Files the counting run itself changed (the tree after it is the current one): tests-fresh says so. */
  changedByTestRun?: readonly string[];
  /** The protected-paths and lifecycle-scripts gates (protected-changes.ts), always evaluated when given. */
  protectedChanges?: readonly GateResult[];
  /** The repository's Stop hooks changed these files during this evaluation, after the counting run. */
  changedByStopHooks?: { hooks: readonly string[]; files: readonly string[] };
}

/** The run the gates judge: the last harness run (the final run) when there is one, else the last run. */
export function runThatCounts(runs: readonly TestRun[]): TestRun | undefined {
  const harness = runs.filter((r) => r.by === 'harness');
  return harness[harness.length - 1] ?? runs[runs.length - 1];
}

const norm = (s: string): string => s.trim().replace(/\s+/g, ' ');
const executedBy = (r: TestRun): number => (r.counts ? r.counts.passed + r.counts.failed : 0);
const list = (files: readonly string[]): string =>
  files.length > 8 ? `${files.slice(0, 8).join(', ')} and ${files.length - 8} more` : files.join(', ');

/** The most tests any run before `r` executed with exactly `command` (no filter added), and that run. */
function earlierMax(runs: readonly TestRun[], r: TestRun, command: string): number {
  const at = runs.indexOf(r);
  return runs.slice(0, at < 0 ? runs.length : at).reduce((m, x) => (norm(x.command) === norm(command) ? Math.max(m, executedBy(x)) : m), 0);
}

/**
 * An agent's run of a runner called straight (`go test ./...`, `npx jest`), whose plain output may carry
 * no counts (go test prints them only with -v or -json): the final run asks that runner for its report.
 */
function countedByFinalRun(r: TestRun): boolean {
  if (r.by !== 'agent') return false;
  const words = r.command.trim().split(/\s+/);
  // `PYTHONPATH=src python -m unittest`: the environment prefix is not the runner.
  const at = words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  const rest = words.slice(words[at] === 'npx' ? at + 1 : at);
  return RUNNERS.some((runner) => runner.match(rest) !== undefined);
}

const describe = (r: TestRun): string => {
  const c = r.counts;
  return c ? `${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped of ${c.total}` : 'counts unknown';
};

/** Evaluates every enabled gate over facts the harness observed (pure: no I/O). */
/** Judges the run that counts against `test.command` (`c`): a result, or undefined for no gate. */
type Judge = (r: TestRun, c: string) => GateResult | undefined;

/** tests-ran: the run executed tests (counts known), at least min_tests, and no fewer than before or on the base. */
function judgeTestsRan(facts: GateFacts): Judge {
  const { gates, test } = facts.config;
  return (r, c) => {
    if (!r.counts && gates.final_run && countedByFinalRun(r)) {
      return {
        name: 'tests-ran',
        passed: true,
        detail: `\`${r.command}\` printed no test counts; the harness's final run asks the runner for its report and counts the tests there`,
      };
    }
    if (!r.counts && r.countCheck?.some((k) => !k.agree))
      return {
        name: 'tests-ran',
        passed: false,
        detail: `the count of \`${r.command}\` is not trusted: ${r.note ?? 'it disagrees with the runner’s own summary'}`,
      };
    if (!r.counts)
      return {
        name: 'tests-ran',
        passed: false,
        detail: `couldn't read test counts from the output; configure test.report (JUnit XML or Jest/Vitest JSON) so \`${r.command}\` can be counted`,
      };
    const executed = executedBy(r);
    const fail = (detail: string): GateResult => ({ name: 'tests-ran', passed: false, detail });
    if (executed < test.min_tests)
      return fail(
        `${executed} test(s) executed by \`${r.command}\`, at least ${test.min_tests} needed (${describe(r)}): run the tests without a filter that leaves them out`,
      );
    const before = earlierMax(facts.testRuns, r, c);
    const leftOut = 'tests were left out of the run: restore the test files, test scripts or runner config that select them, then run';
    if (executed < before)
      return fail(
        `${executed} test(s) executed by \`${r.command}\`, fewer than the ${before} an earlier \`${c}\` run executed (${describe(r)}): ${leftOut} \`${c}\` again`,
      );
    const base = facts.baselineExecuted;
    if (base !== undefined && executed < base)
      return fail(
        `${executed} test(s) executed by \`${r.command}\`, fewer than the ${base} \`${c}\` executed on the base commit (${describe(r)}): ${leftOut} \`${c}\` again`,
      );
    return { name: 'tests-ran', passed: true, detail: `${executed} test(s) executed by \`${r.command}\` (${describe(r)})` };
  };
}

/** tests-passed: the run exited 0 with no failed test. */
const judgeTestsPassed: Judge = (r, c) => {
  const failed = r.counts?.failed ?? 0;
  if (r.exitCode === 0 && failed === 0) return { name: 'tests-passed', passed: true, detail: `\`${r.command}\` exited 0 (${describe(r)})` };
  const how = r.exitCode === null ? 'did not finish (timed out or killed)' : `exited with code ${r.exitCode}`;
  return {
    name: 'tests-passed',
    passed: false,
    detail: `\`${r.command}\` ${how} (${describe(r)}): fix the failures and run \`${c}\` again`,
  };
};

/** tests-fresh: the run saw the current files; says who changed them when it did not (the run itself, a Stop hook, the agent). */
function judgeTestsFresh(facts: GateFacts): Judge {
  return (r, c) => {
    const fail = (detail: string): GateResult => ({ name: 'tests-fresh', passed: false, detail });
    if (r.treeHash === facts.currentTreeHash)
      return { name: 'tests-fresh', passed: true, detail: `the last test run saw the current files (tree ${r.treeHash.slice(0, 12)})` };
    const byRun = facts.changedByTestRun ?? [];
    if (byRun.length) return fail(`the test command itself changed files: ${list(byRun)}; add them to .gitignore or test.report`);
    const hooks = facts.changedByStopHooks;
    if (hooks)
      return fail(
        `the repository's Stop hook (${hooks.hooks.map((h) => `\`${h}\``).join(', ')}) changed files after the last test run (${list(hooks.files)}): run the tests again (\`${c}\`) on the changed files`,
      );
    return fail(`files changed after the last test run: run the tests again (\`${c}\`)`);
  };
}

/** The gates on the test run that counts: tests-ran, tests-passed, tests-fresh (each when enabled). */
function testRunGates(facts: GateFacts, gate: (name: string, passed: boolean, detail: string) => void, out: GateResult[]): void {
  const { gates, test } = facts.config;
  const cmd = test.command;
  const run = runThatCounts(facts.testRuns);
  const missing = (name: string) => `\`test.command\` is missing in .github/proofpr.yml (needed by gate ${name})`;
  const testGate = (name: string, judge: Judge, noRun: string) => {
    if (cmd === undefined) return gate(name, false, missing(name));
    if (run === undefined) return gate(name, false, `no test run: ${noRun}`);
    const r = judge(run, cmd);
    if (r) out.push(r);
  };
  if (gates.tests_ran) testGate('tests-ran', judgeTestsRan(facts), `run \`${cmd ?? ''}\` before finishing`);
  if (gates.tests_passed) testGate('tests-passed', judgeTestsPassed, `run \`${cmd ?? ''}\` and make it pass`);
  if (gates.tests_fresh && facts.hashError !== undefined) {
    gate(
      'tests-fresh',
      false,
      `could not hash the worktree: ${facts.hashError}; remove nested git repositories (folders with their own .git) or add them to .gitignore, then run \`${cmd ?? 'the tests'}\` again`,
    );
  } else if (gates.tests_fresh) testGate('tests-fresh', judgeTestsFresh(facts), `run \`${cmd ?? ''}\` on the final files`);
}

export function evaluateGates(facts: GateFacts): GateResult[] {
  const { gates } = facts.config;
  const out: GateResult[] = [];
  const gate = (name: string, passed: boolean, detail: string) => out.push({ name, passed, detail });
  testRunGates(facts, gate, out);
  if (gates.assertions_kept) {
    const a = facts.assertions;
    if (!a) gate('assertions-kept', false, 'the test files were not checked');
    else if (a.passed) gate('assertions-kept', true, a.detail);
    else
      gate(
        'assertions-kept',
        false,
        `${a.detail}\nRestore the removed assertions, skip markers and test files: change the code under test, not the tests that judge it.`,
      );
    const t = facts.testConfig;
    if (!t) gate('test-config-kept', false, 'the test scripts and test runner config were not checked');
    else gate('test-config-kept', t.passed, t.detail);
  }
  if (facts.testsKept) {
    const k = facts.testsKept;
    gate(
      'tests-kept',
      k.passed,
      k.passed
        ? `all ${k.checked} test(s) executed on the base commit were executed by the final run`
        : `${k.missing.length} test(s) executed on the base commit were not executed by the final run: ${list(k.missing)}; restore them (a deleted test file fails test integrity instead)`,
    );
  }
  if (gates.red_green ?? facts.redGreen !== undefined) {
    const rg = facts.redGreen;
    if (!rg) gate('red-green', false, 'red-green was not checked');
    else gate('red-green', rg.passed, rg.detail);
  }
  // Shown when they have something to say: a protected change, or lifecycle scripts the change touches.
  if (facts.protectedChanges)
    out.push(...facts.protectedChanges.filter((g) => !g.passed || (g.name === 'lifecycle-scripts' && !g.detail.startsWith('no package'))));
  if (facts.stopHooks !== undefined) {
    const blocks = facts.stopHooks.flatMap((o) => (o.kind === 'block' ? [`\`${o.hook}\` blocked: ${o.reason}`] : []));
    const errors = facts.stopHooks.flatMap((o) => (o.kind === 'error' ? [`\`${o.hook}\` failed (not blocking): ${o.message}`] : []));
    const ok = blocks.length === 0;
    gate('stop-hooks', ok, [...blocks, ...errors].join('\n') || "the repository's Stop hooks passed");
  }
  return out;
}
