import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { RunnerName } from './test-results/runners/types.js';
import type { Logger } from 'pino';
import type { RunSettings } from '../settings.js';
import { logger as moduleLogger } from '../../log.js';
import type { ExecPort } from '../../workspace/exec-port.js';
import type { Snapshot } from '../../workspace/snapshot-commit.js';
import { treeHash as gitTreeHash } from '../../workspace/tree-hash.js';
import type { GateResult, RunEventInput, TestRun } from '../events.js';
import type { HookRunner } from '../hooks/types.js';
import { runBaseline, type Baseline } from './test-runs/baseline.js';
import type { FixView } from './shipped/types.js';
import type { RedGreenResult } from './gates/red-green.js';
import { reportExclude } from './test-results/report-exclude.js';
import type { TestRunHandle } from './types.js';
import type { ReproduceSpec } from './test-runs/ci-reproduce.js';

export interface VerifierOptions {
  root: string;
  runDir: string;
  /** The run settings (run/run-settings.ts): test command, gates, permissions, limits; never the repository config. */
  settings: RunSettings;
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
  /** A CI fix round: the commands CI's failing steps ran (gate ci-reproduced, ci-reproduce.ts). */
  reproduce?: ReproduceSpec;
}

export type ReportStat = { mtimeMs: number; size: number } | undefined;
export type Hash = { tree: string; error?: undefined } | { tree?: undefined; error: string };

/** What the verifier's parts share: the options, derived settings, and the state observed so far. */
export interface VerifierContext {
  opts: VerifierOptions;
  root: string;
  /** The run settings (opts.settings), under the name the verifier's parts read. */
  config: RunSettings;
  onEvent: (ev: RunEventInput) => void;
  log: Logger;
  /** `{ gitDir }` when the worktree's git dir is known, else `{}` (spread into git helpers' options). */
  gitDir: { gitDir?: string };
  scratch: string;
  redGreenOn: boolean;
  /** The worktree's tree hash now; a failure is returned, never thrown. */
  hash: () => Promise<Hash>;
  /** The test report's mtime and size now (undefined without test.report or when it does not exist). */
  statReport: () => Promise<ReportStat>;
  /** The baseline on the base commit, run at most once (undefined when there is no test command or it could not run). */
  getBaseline: () => Promise<Baseline | undefined>;
  state: VerifierState;
  /** Gates evaluated after the built-in ones (the CI fix round's ci-reproduced). */
  extraGates?: (current: Hash) => Promise<GateResult[]>;
}

/** What the verifier has observed so far (mutated as the run goes). */
export interface VerifierState {
  runs: TestRun[];
  reportBefore: WeakMap<TestRunHandle, ReportStat>;
  /** The differential gate of the commit last judged (the kept run happens once per tested commit). */
  differential?: { sha: string; result: { gate: GateResult; keptRan: boolean } };
  /** Parsed integrity findings already shown to the model at a Stop (each sends it back once). */
  advisoryShown: Set<string>;
  /** Per agent test run: the runners whose report is the output stream (go test under the observer). */
  streamRunners: WeakMap<TestRunHandle, readonly RunnerName[]>;
  /** The tree right after a run, when the run itself changed it. */
  treeAfter: WeakMap<TestRun, string>;
  redGreenCache: { tree: string; result: RedGreenResult } | undefined;
  /** The change classified into shipped code and the rest (shipped/classify.ts), per tree. */
  fixView?: { tree: string; view: FixView | undefined } | undefined;
  tested: Snapshot | undefined;
  stopBlocks: number;
  finalRuns: number;
}

export function verifierContext(opts: VerifierOptions): VerifierContext {
  const { root, settings: config, onEvent } = opts;
  const log = opts.logger ?? moduleLogger('verification');
  const gitDir = opts.gitDir ? { gitDir: opts.gitDir } : {};
  const scratch = opts.scratchDir ?? tmpdir();
  return {
    opts,
    root,
    config,
    onEvent,
    log,
    gitDir,
    scratch,
    redGreenOn: config.gates.red_green ?? opts.taskKind === 'issue',
    hash: worktreeHasher(opts),
    statReport: () => statReport(root, config.test.report),
    getBaseline: lazyBaseline(opts, log, scratch),
    state: {
      runs: [],
      reportBefore: new WeakMap(),
      streamRunners: new WeakMap(),
      advisoryShown: new Set(),
      treeAfter: new WeakMap(),
      redGreenCache: undefined,
      tested: undefined,
      stopBlocks: 0,
      finalRuns: 0,
    },
  };
}

function worktreeHasher(opts: VerifierOptions): () => Promise<Hash> {
  const { root, settings: config } = opts;
  const gitDir = opts.gitDir ? { gitDir: opts.gitDir } : {};
  // The report the test command writes is not part of the work (commitWork must leave it out the same way).
  const hashOf =
    opts.treeHash ?? (async (r: string) => gitTreeHash(r, { exclude: await reportExclude(r, config.test.report, opts.gitDir), ...gitDir }));
  return async () => {
    try {
      return { tree: await hashOf(root) };
    } catch (e) {
      return { error: (e as Error).message.trim() };
    }
  };
}

async function statReport(root: string, report: string | undefined): Promise<ReportStat> {
  const p = report === undefined ? undefined : isAbsolute(report) ? report : join(root, report);
  if (!p) return undefined;
  const s = await stat(p).catch(() => undefined);
  return s && { mtimeMs: s.mtimeMs, size: s.size };
}

/** The baseline, run once on a clean checkout of the base when no one passed it; undefined when it could not run. */
function lazyBaseline(opts: VerifierOptions, log: Logger, scratch: string): () => Promise<Baseline | undefined> {
  const { root, settings: config, onEvent } = opts;
  let baseline: Promise<Baseline | undefined> | undefined = opts.baseline ? Promise.resolve(opts.baseline) : undefined;
  return () => {
    const command = config.test.command;
    if (command === undefined) return Promise.resolve(undefined);
    baseline ??= runBaseline({
      root,
      ...(opts.gitDir ? { gitDir: opts.gitDir } : {}),
      baseSha: opts.baseSha,
      config,
      exec: opts.exec,
      scratchDir: scratch,
      runDir: opts.runDir,
      ...(opts.signal ? { signal: opts.signal } : {}),
      logger: log,
    })
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
}

/** Records a finished test run: kept in order, the tree after it remembered when the run changed it, a test_run event. */
export function recordRun(ctx: VerifierContext, run: TestRun, before: string, after: Hash): TestRun {
  ctx.state.runs.push(run);
  if (after.tree !== undefined && before !== '' && after.tree !== before) ctx.state.treeAfter.set(run, after.tree);
  ctx.onEvent({ type: 'test_run', run });
  return run;
}
