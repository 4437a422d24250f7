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
import { evaluateGates } from './gates.js';
import { readCounts } from './read-counts.js';
import { redGreen, type RedGreenResult } from './red-green.js';
import { runTestCommand } from './run-test-command.js';
import { stopMessage } from './stop-message.js';
import { isTestCommand } from './test-runs.js';
import type { BashOutcome, StopVerdict, TestRunHandle, Verifier } from './types.js';

export interface VerifierOptions {
  root: string;
  runDir: string;
  config: RepoConfig;
  exec: ExecPort;
  baseSha: string;
  hooks: HookRunner;
  treeHash?: (root: string) => Promise<string>;
  onEvent: (ev: RunEventInput) => void;
  logger?: Logger;
  signal?: AbortSignal;
  /**
   * Scratch folder for red→green's temporary base worktree. Pass the exec's tmp folder (writable in
   * the sandbox); default the OS temp folder.
   */
  scratchDir?: string;
}

type ReportStat = { mtimeMs: number; size: number } | undefined;

/**
 * The harness's own judgement (issue 5): watches Bash calls for test runs, and at Stop evaluates the
 * gates over what it observed (test runs with their tree hashes, the test-file diff, the repository's
 * Stop hooks). Emits a `test_run` event per run, a `gate` event per gate evaluation and a `hook` event
 * per Stop hook that blocked, errored or added context.
 */
export function createVerifier(opts: VerifierOptions): Verifier {
  const { root, config, onEvent } = opts;
  const log = opts.logger ?? moduleLogger('verification');
  const hashOf = opts.treeHash ?? gitTreeHash;
  const runs: TestRun[] = [];
  const reportBefore = new WeakMap<TestRunHandle, ReportStat>();
  let redGreenCache: { tree: string; result: RedGreenResult } | undefined;
  let stopBlocks = 0;
  let finalRuns = 0;

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

  const record = (run: TestRun): TestRun => {
    runs.push(run);
    onEvent({ type: 'test_run', run });
    return run;
  };

  const emitHooks = (outcomes: readonly HookOutcome[]) => {
    for (const o of outcomes) {
      if (o.kind === 'block') onEvent({ type: 'hook', event: 'Stop', name: o.hook, outcome: 'block', message: o.reason });
      else if (o.kind === 'error') onEvent({ type: 'hook', event: 'Stop', name: o.hook, outcome: 'error', message: o.message });
      else if (o.kind === 'context') onEvent({ type: 'hook', event: 'Stop', name: o.hook, outcome: 'context', message: o.text });
    }
  };

  const evaluateAt = async (final: boolean): Promise<StopVerdict> => {
    const current = await hashOf(root);
    const needDiff = config.gates.assertions_kept || config.gates.red_green;
    const assertions: AssertionsResult | undefined = needDiff ? await assertionsKept(root, opts.baseSha) : undefined;
    let rg: RedGreenResult | undefined;
    if (config.gates.red_green && assertions) {
      if (redGreenCache?.tree !== current) {
        const result = await redGreen({ root, baseSha: opts.baseSha, config, exec: opts.exec, testFiles: assertions.changedTestFiles, deletedTestFiles: assertions.deletedTestFiles, ...(opts.scratchDir ? { scratchDir: opts.scratchDir } : {}), logger: log });
        redGreenCache = { tree: current, result };
      }
      rg = redGreenCache.result;
    }
    let stopHooks: HookOutcome[] | undefined;
    if (config.hooks.Stop.length > 0) {
      stopHooks = await opts.hooks.run('Stop', { hook_event_name: 'Stop', cwd: root, stop_blocks: stopBlocks });
      emitHooks(stopHooks);
    }
    const gates = evaluateGates({
      config,
      testRuns: runs,
      currentTreeHash: current,
      ...(config.gates.assertions_kept && assertions ? { assertions } : {}),
      ...(rg ? { redGreen: rg } : {}),
      ...(stopHooks ? { stopHooks } : {}),
    });
    for (const g of gates) onEvent({ type: 'gate', name: g.name, passed: g.passed, detail: g.detail, final });
    const ok = gates.every((g) => g.passed);
    if (!ok && !final) stopBlocks++;
    log.debug({ final, ok, failed: gates.filter((g) => !g.passed).map((g) => g.name) }, 'gates evaluated');
    return { ok, gates, message: stopMessage(gates, config.test.command) };
  };

  return {
    async beforeBash(command: string): Promise<TestRunHandle | undefined> {
      if (!isTestCommand(command, config.test.command)) return undefined;
      const handle: TestRunHandle = { command, treeHash: await hashOf(root), startedAt: new Date().toISOString() };
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
      const c = readCounts({ root, report: rewritten ? config.test.report : undefined, startedAtMs: Date.parse(handle.startedAt), output });
      return record({
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
      });
    },

    evaluate: () => evaluateAt(false),

    async finalCheck(): Promise<StopVerdict> {
      const command = config.test.command;
      if (config.gates.final_run && command !== undefined) {
        const tree = await hashOf(root);
        finalRuns++;
        const outputFile = join(opts.runDir, 'tool-output', `final-test-run-${finalRuns}.txt`);
        const { run } = await runTestCommand({ cwd: root, command, config, exec: opts.exec, treeHash: tree, outputFile, ...(opts.signal ? { signal: opts.signal } : {}) });
        record(run);
      }
      return evaluateAt(true);
    },
  };
}
