import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { Logger } from 'pino';
import type { RepoConfig } from '../../config/repo-config.js';
import { logger as moduleLogger } from '../../log.js';
import type { ExecPort } from '../../workspace/exec-port.js';
import { treeHash as gitTreeHash } from '../../workspace/tree-hash.js';
import type { RunEventInput, TestRun } from '../events.js';
import type { HookOutcome, HookRunner } from '../hooks/types.js';
import { assertionsKept, type AssertionsResult } from './assertions.js';
import { changedFiles } from './changed-files.js';
import { gateDiff } from './gate-diff.js';
import { protectedChangesNow } from './protected-changes.js';
import { evaluateGates, runThatCounts, type GateFacts } from './gates.js';
import { readCounts } from './read-counts.js';
import { runBaseline, type Baseline } from './baseline.js';
import { harnessTestRun } from './harness-run.js';
import { withPristineCheckout } from './pristine-checkout.js';
import { loadBashParser } from '../permissions/bash-parser.js';
import { snapshotCommit, type Snapshot } from '../../workspace/snapshot-commit.js';
import { tmpdir } from 'node:os';
import { redGreen, type RedGreenResult } from './red-green.js';
import { reportExclude } from './report-exclude.js';
import { stopMessage } from './stop-message.js';
import { testConfigKept, type TestConfigResult } from './test-config.js';
import { isTestCommand } from './test-runs.js';
import type { BashOutcome, StopVerdict, TestRunHandle, Verifier } from './types.js';
import type { FileDiff } from './worktree-diff.js';

export interface VerifierOptions {
  root: string;
  runDir: string;
  config: RepoConfig;
  exec: ExecPort;
  baseSha: string;
  hooks: HookRunner;
  /** Replaces the git tree hash (tests); the default hashes with `gitDir` and leaves test.report out. */
  treeHash?: (root: string) => Promise<string>;
  /** The worktree's git dir as createWorktree recorded it (Worktree.gitDir): every harness git call uses it. */
  gitDir?: string;
  onEvent: (ev: RunEventInput) => void;
  logger?: Logger;
  signal?: AbortSignal;
  /**
   * Scratch folder for red→green's temporary base worktree. Pass the exec's tmp folder (writable in
   * the sandbox); default the OS temp folder.
   */
  scratchDir?: string;
  /** Tests `test.command` executed on the base commit (passed + failed), when known: tests-ran needs as many. */
  baselineExecuted?: number;
  /**
   * The baseline on the base commit (runBaseline), when the run layer ran it before the agent (readiness).
   * Without it the verifier runs it itself when a gate needs it (red-green, tests-kept at the final run).
   */
  baseline?: Baseline;
  /** The task's kind: `gates.red_green` defaults to on for issues (bug fixes). */
  taskKind?: string;
  /** How the tested commit is written (the run layer's message and identity); it is the commit that gets pushed. */
  commit?: { message: string; identity: { name: string; email: string }; coAuthor?: string };
}

type ReportStat = { mtimeMs: number; size: number } | undefined;
type Hash = { tree: string; error?: undefined } | { tree?: undefined; error: string };

/**
 * The harness's own judgement (issue 5): watches Bash calls for test runs, and at Stop evaluates the
 * gates over what it observed (test runs with their tree hashes, the test-file and test-config diff,
 * the repository's Stop hooks). Emits a `test_run` event per run, a `gate` event per gate evaluation,
 * (the hook runner records each Stop hook that blocked, errored or added context), and a `notice` when the
 * worktree can't be hashed. Never throws for a git failure: it becomes a failed gate.
 */
export function createVerifier(opts: VerifierOptions): Verifier {
  const { root, config, onEvent } = opts;
  const log = opts.logger ?? moduleLogger('verification');
  // The report the test command writes is not part of the work (commitWork must leave it out the same way).
  const gitDir = opts.gitDir ? { gitDir: opts.gitDir } : {};
  const hashOf = opts.treeHash ?? (async (r: string) => gitTreeHash(r, { exclude: await reportExclude(r, config.test.report, opts.gitDir), ...gitDir }));
  const runs: TestRun[] = [];
  const reportBefore = new WeakMap<TestRunHandle, ReportStat>();
  /** The tree right after a run, when the run itself changed it. */
  const treeAfter = new WeakMap<TestRun, string>();
  let redGreenCache: { tree: string; result: RedGreenResult } | undefined;
  let baseline: Promise<Baseline | undefined> | undefined = opts.baseline ? Promise.resolve(opts.baseline) : undefined;
  let tested: Snapshot | undefined;
  const scratch = opts.scratchDir ?? tmpdir();
  const redGreenOn = config.gates.red_green ?? opts.taskKind === 'issue';
  /** The baseline, run once on a clean checkout of the base when no one passed it; undefined when it could not run. */
  const getBaseline = (): Promise<Baseline | undefined> => {
    const command = config.test.command;
    if (command === undefined) return Promise.resolve(undefined);
    baseline ??= runBaseline({ root, ...gitDir, baseSha: opts.baseSha, config, exec: opts.exec, scratchDir: scratch, runDir: opts.runDir, ...(opts.signal ? { signal: opts.signal } : {}), logger: log })
      .then((b) => {
        onEvent({ type: 'test_run', run: b.run });
        return b;
      })
      .catch((e: Error) => {
        onEvent({ type: 'notice', message: `the baseline test run on the base commit failed to start: ${e.message}` });
        return undefined;
      });
    return baseline;
  };
  let stopBlocks = 0;
  let finalRuns = 0;

  const hash = async (): Promise<Hash> => {
    try {
      return { tree: await hashOf(root) };
    } catch (e) {
      return { error: (e as Error).message.trim() };
    }
  };
  const reportPath = (): string | undefined => {
    const r = config.test.report;
    return r === undefined ? undefined : isAbsolute(r) ? r : join(root, r);
  };
  const statReport = async (): Promise<ReportStat> => {
    const p = reportPath();
    if (!p) return undefined;
    const s = await stat(p).catch(() => undefined);
    return s && { mtimeMs: s.mtimeMs, size: s.size };
  };

  const record = (run: TestRun, before: string, after: Hash): TestRun => {
    runs.push(run);
    if (after.tree !== undefined && before !== '' && after.tree !== before) treeAfter.set(run, after.tree);
    onEvent({ type: 'test_run', run });
    return run;
  };


  /** The diff gates' facts; a failing diff (nested repository, bad base) fails both gates with its message. */
  const diffGates = async (): Promise<{ assertions: AssertionsResult; testConfig: TestConfigResult }> => {
    let diffs: FileDiff[];
    try {
      diffs = await gateDiff(root, opts.baseSha, opts.gitDir);
    } catch (e) {
      const detail = `could not diff the worktree against ${opts.baseSha.slice(0, 12)}: ${(e as Error).message.trim()}; remove nested git repositories (folders with their own .git) or add them to .gitignore`;
      return { assertions: { passed: false, detail, removed: [], skipsAdded: [], deletedTestFiles: [], changedTestFiles: [] }, testConfig: { passed: false, detail, changed: [] } };
    }
    return { assertions: await assertionsKept(root, opts.baseSha, diffs, { allowed: config.gates.test_changes_allowed, ...gitDir }), testConfig: await testConfigKept(root, opts.baseSha, diffs, config.test.command, opts.gitDir, { allowed: config.gates.test_changes_allowed }) };
  };

  const evaluateAt = async (final: boolean): Promise<StopVerdict> => {
    const counting = runThatCounts(runs);
    let stopHooks: HookOutcome[] | undefined;
    let current: Hash;
    let changedByStopHooks: GateFacts['changedByStopHooks'];
    if (config.hooks.Stop.length > 0) {
      // Hashed after the Stop hooks: a formatter hook's changes are part of what gets committed.
      const before = await hash();
      stopHooks = await opts.hooks.run('Stop', { hook_event_name: 'Stop', cwd: root, stop_blocks: stopBlocks });
      current = await hash();
      if (before.tree !== undefined && current.tree !== undefined && before.tree !== current.tree && counting?.treeHash === before.tree) {
        changedByStopHooks = { hooks: config.hooks.Stop.map((h) => h.command), files: await changedFiles(root, before.tree, current.tree, opts.gitDir) };
      }
    } else current = await hash();
    const after = counting && treeAfter.get(counting);
    const changedByTestRun = counting && after !== undefined && after === current.tree ? await changedFiles(root, counting.treeHash, after, opts.gitDir) : undefined;

    const needDiff = config.gates.assertions_kept || redGreenOn;
    const diff = needDiff ? await diffGates() : undefined;
    const base = redGreenOn || final ? await getBaseline() : undefined;
    const fixed = final && counting?.by === 'harness' ? (counting.fixed ?? []) : [];
    let rg: RedGreenResult | undefined;
    if (redGreenOn && diff) {
      const { assertions } = diff;
      const testFiles = assertions.changedTestFiles;
      if (fixed.length) rg = { passed: true, detail: `${fixed.length} test(s) failed on the base commit ${opts.baseSha.slice(0, 12)} and pass now: ${list(fixed)}`, testFiles, failedBefore: true };
      else if (testFiles.length === 0 && base?.countsKnown && base.failingIds.length === 0) {
        rg = { passed: false, detail: `the base commit ${opts.baseSha.slice(0, 12)} passes its tests and no test was added or changed: add a test that fails without the fix (gates.red_green)`, testFiles, failedBefore: false };
      } else if (testFiles.length === 0) {
        rg = final
          ? { passed: false, detail: `no test that failed on the base commit passes now, and no test was added or changed: add a test that fails without the fix (gates.red_green)`, testFiles, failedBefore: false }
          : { passed: true, detail: 'checked at the final run: a test failing on the base must pass then', testFiles, failedBefore: false };
      } else if (!final && base?.countsKnown && base.failingIds.length > 0) {
        // A red base: the proof is a test failing there that passes at the final run (the fixed ids), which only the final run can show.
        rg = { passed: true, detail: 'checked at the final run: the base is red, so a test failing there must pass then', testFiles, failedBefore: false };
      } else if (current.tree === undefined || redGreenCache?.tree !== current.tree) {
        const result = await redGreen({ root, baseSha: opts.baseSha, config, exec: opts.exec, testFiles, deletedTestFiles: assertions.deletedTestFiles, scratchDir: scratch, ...gitDir, logger: log, ...(base ? { baseFailing: base.failingIds } : {}) });
        redGreenCache = current.tree === undefined ? undefined : { tree: current.tree, result };
        rg = result;
      } else rg = redGreenCache.result;
    }
    const kept = final && counting?.by === 'harness' && base ? testsKept(base, counting, diff?.assertions.deletedTestFiles ?? []) : undefined;
    const protectedChanges = await protectedChangesNow(root, opts.baseSha, { writable: config.permissions.writable, writableWorkflows: config.permissions.writable_workflows, ...gitDir });
    const gates = evaluateGates({
      config,
      protectedChanges,
      testRuns: runs,
      currentTreeHash: current.tree ?? '',
      ...(current.error !== undefined ? { hashError: current.error } : {}),
      ...(changedByTestRun?.length ? { changedByTestRun } : {}),
      ...(changedByStopHooks ? { changedByStopHooks } : {}),
      ...(base?.countsKnown || opts.baselineExecuted !== undefined ? { baselineExecuted: Math.max(base?.countsKnown ? base.executed : 0, opts.baselineExecuted ?? 0) } : {}),
      ...(kept ? { testsKept: kept } : {}),
      ...(config.gates.assertions_kept && diff ? { assertions: diff.assertions, testConfig: diff.testConfig } : {}),
      ...(rg ? { redGreen: rg } : {}),
      ...(stopHooks ? { stopHooks } : {}),
    });
    for (const g of gates) onEvent({ type: 'gate', name: g.name, passed: g.passed, detail: g.detail, final });
    const ok = gates.every((g) => g.passed);
    if (!ok && !final) stopBlocks++;
    log.debug({ final, ok, failed: gates.filter((g) => !g.passed).map((g) => g.name) }, 'gates evaluated');
    const acceptedTree = ok ? (counting?.treeHash ?? current.tree) : undefined;
    return { ok, gates, message: stopMessage(gates, config.test.command), ...(acceptedTree ? { acceptedTree } : {}) };
  };

  /**
   * The evidence run: the commit that would be pushed is written (not yet on the branch), checked out
   * clean (nothing ignored or untracked from the worktree), and test.command runs there with the
   * runner's report asked for by the harness. A failure to build or check out the commit is a run with
   * unknown counts that says why.
   */
  const pristineRun = async (command: string, treeHash: string, outputFile: string): Promise<TestRun> => {
    const c = opts.commit ?? { message: 'proofpr: the tested commit', identity: { name: 'proofpr[bot]', email: 'proofpr[bot]@users.noreply.github.com' } };
    const startedAt = new Date().toISOString();
    try {
      const snap = await snapshotCommit({ worktree: root, message: c.message, identity: c.identity, ...(c.coAuthor ? { coAuthor: c.coAuthor } : {}), ...gitDir, exclude: config.test.report ? [config.test.report] : [] });
      const { run } = await withPristineCheckout({ root, ...gitDir, sha: snap.sha, scratchDir: scratch, logger: log }, (dir) =>
        harnessTestRun({ cwd: dir, command, config, exec: opts.exec, scratchDir: scratch, kind: 'final', treeHash, commit: snap.sha, outputFile, ...(opts.signal ? { signal: opts.signal } : {}) }),
      );
      tested = run.exitCode === null ? undefined : snap;
      return run;
    } catch (e) {
      tested = undefined;
      const msg = (e as Error).message.trim();
      return { command, exitCode: null, startedAt, endedAt: new Date().toISOString(), treeHash, counts: null, source: 'none', by: 'harness', kind: 'final', note: `could not check out the commit to test: ${msg}` };
    }
  };

  return {
    async beforeBash(command: string): Promise<TestRunHandle | undefined> {
      if (!isTestCommand(command, config.test.command, await loadBashParser())) return undefined;
      const h = await hash();
      if (h.tree === undefined) {
        onEvent({ type: 'notice', message: `this test run is not counted: could not hash the worktree (${h.error}); remove nested git repositories (folders with their own .git) or add them to .gitignore` });
        return undefined;
      }
      const handle: TestRunHandle = { command, treeHash: h.tree, startedAt: new Date().toISOString() };
      reportBefore.set(handle, await statReport());
      return handle;
    },

    async afterBash(handle: TestRunHandle, outcome: BashOutcome): Promise<TestRun> {
      let output = outcome.output;
      if (outcome.outputPath) output = await readFile(outcome.outputPath, 'utf8').catch(() => outcome.output);
      // A report the run did not rewrite (same mtime and size as before it) is a previous run's.
      const before = reportBefore.get(handle);
      const after = await statReport();
      const rewritten = !(before && after && before.mtimeMs === after.mtimeMs && before.size === after.size);
      const c = readCounts({ root, report: rewritten ? config.test.report : undefined, startedAtMs: Date.parse(handle.startedAt), endedAtMs: Date.parse(outcome.endedAt), output });
      const run: TestRun = {
        command: outcome.command || handle.command,
        exitCode: outcome.exitCode,
        startedAt: handle.startedAt,
        endedAt: outcome.endedAt,
        treeHash: handle.treeHash,
        counts: c.counts,
        source: c.source,
        ...(c.reportPath ? { reportPath: c.reportPath } : {}),
        ...(c.runner ? { runner: c.runner } : {}),
        by: 'agent',
        ...(outcome.outputPath ? { outputPath: outcome.outputPath } : {}),
      };
      return record(run, handle.treeHash, await hash());
    },

    evaluate: () => evaluateAt(false),

    testedCommit: () => tested,

    async finalCheck(): Promise<StopVerdict> {
      const command = config.test.command;
      if (config.gates.final_run && command !== undefined) {
        const before = await hash();
        finalRuns++;
        const outputFile = join(opts.runDir, 'tool-output', `final-test-run-${finalRuns}.txt`);
        const run = await pristineRun(command, before.tree ?? '', outputFile);
        // Evidence gains the ids that failed on the base and pass on the commit.
        const base = run.tests?.length ? await getBaseline() : undefined;
        const fixed = base ? fixedIds(base, run) : [];
        record(fixed.length ? { ...run, fixed } : run, before.tree ?? '', await hash());
      }
      return evaluateAt(true);
    },
  };
}

const list = (ids: readonly string[]): string => (ids.length > 8 ? `${ids.slice(0, 8).join(', ')} and ${ids.length - 8} more` : ids.join(', '));

/** Ids that failed on the base and pass in `run`. */
function fixedIds(base: Baseline, run: TestRun): string[] {
  const passing = new Set((run.tests ?? []).filter((t) => t.outcome === 'passed').map((t) => t.id));
  return base.failingIds.filter((id) => passing.has(id));
}

/**
 * Every test executed on the base (passed or failed) must be executed by the final run, unless its
 * file was deleted (test integrity judges that). Undefined when either run has no per-test ids.
 */
function testsKept(base: Baseline, run: TestRun, deletedFiles: readonly string[]): { passed: boolean; missing: string[]; checked: number } | undefined {
  if (!base.tests.length || !run.tests?.length) return undefined;
  const executed = new Set(run.tests.filter((t) => t.outcome !== 'skipped').map((t) => t.id));
  const deleted = new Set(deletedFiles);
  const before = base.tests.filter((t) => t.outcome !== 'skipped' && !(t.file && deleted.has(t.file)));
  const missing = before.filter((t) => !executed.has(t.id)).map((t) => t.id);
  return { passed: missing.length === 0, missing, checked: before.length };
}
