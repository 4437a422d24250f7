/**
 * `proofpr verify`'s engine seam (issue 40, CONTRACT §11): the run's own steps with the agent loop
 * replaced by the head commit. A worktree at the base, the commands, the sandbox, setup and the baseline
 * on the base exactly as `run` takes them (src/run/*); then the head's tree is put in the worktree (what
 * the agent's edits would have done) and the same verifier (src/agent/verification/verifier.ts) makes
 * its final check: the final run on a clean checkout of the head, red→green (the head's new tests on the
 * base's code), the kept run (the base's tests on the head's code), the gates; the same run folder.
 * No model is called: the model handed to the run layer throws if anything ever asks it.
 */
import { commandFacts } from './run-task.js';
import { join } from 'node:path';
import { stamp, type RunEvent } from '../agent/events.js';
import type { RunSettings } from '../agent/settings.js';
import { createHookRunner } from '../agent/hooks/runner.js';
import { createVerifier } from '../agent/verification/verifier.js';
import type { StopVerdict } from '../agent/verification/types.js';
import { infrastructureChanges } from '../agent/verification/gates/protected-changes.js';
import type { RepoConfig } from '../config/repo-config.js';
import type { ModelClient } from '../model/model-client.js';
import type { Readiness } from './check-readiness.js';
import { dependencyCacheDir } from './dependency-cache-dir.js';
import { dependencyCacheStep } from './dependency-cache-step.js';
import { failRun } from './fail-run.js';
import { getReady } from './get-ready.js';
import { openSandbox } from './open-sandbox.js';
import { prepareWorkspace, type Workspace } from './prepare-workspace.js';
import { openRunRecord, type RunRecord } from './run-record.js';
import { outcomeOf, type RunOutcome } from './run-outcome.js';
import { runSettingsOf } from './run-settings.js';
import type { RunTaskInput, RunTaskResult } from './run-task-types.js';
import { resolveRunCommands, type RunCommands } from './resolve-run-commands.js';
import { writeResult } from './write-result.js';
import type { ExecPort } from '../workspace/exec-port.js';
import type { ExecHandle } from '../workspace/exec.js';
import { diffText, filesChanged } from '../workspace/diff-stat.js';
import { git } from '../workspace/git.js';
import { sandboxStatus, type SandboxStatus } from '../workspace/sandbox-status.js';

/** What `verify` names instead of a model in the evidence (`model`). */
export const VERIFY_MODEL_ID = 'none (proofpr verify)';
const MAX_DIFF_BYTES = 200_000;

export interface VerifyCommitsInput {
  /** A git repository holding both commits: a scratch clone the verification may write to (never the user's). */
  repoDir: string;
  /** The base commit: the merge base of the base ref and the head (what the pull request's diff is against). */
  baseSha: string;
  headSha: string;
  /** The config read from the base (never the head's: a change cannot rewrite its own judge). */
  config: RepoConfig;
  /** What the evidence calls the change (a PR's title, `verify <base>..<head>`). */
  title: string;
  /** The head's name for the evidence's `repo.branch` (the PR's head branch, the --head ref). */
  headName: string;
  runId: string;
  runDir: string;
  worktreesDir: string;
  repoFullName?: string;
  /** Paths the sandbox hides besides the run's own (the user's checkout a scratch clone was made from). */
  hide?: readonly string[];
  /** Token for the git server (a blob-less fetch); never logged. */
  gitToken?: string;
  dependencyCache?: string | false;
  signal?: AbortSignal;
  onEvent?: (ev: RunEvent) => void;
}

/** The model `verify` hands the run layer: asking it anything is a bug, said as one. */
const NO_MODEL: ModelClient = {
  send: () => Promise.reject(new Error('proofpr verify makes no model call: a model request was attempted')),
};

function runInputOf(input: VerifyCommitsInput): RunTaskInput {
  return {
    repoDir: input.repoDir,
    baseRef: input.baseSha,
    branch: `proofpr/verify-${input.runId}`,
    task: { kind: 'prompt', title: input.title, body: '' },
    config: input.config,
    model: NO_MODEL,
    modelId: VERIFY_MODEL_ID,
    mode: 'fix',
    runId: input.runId,
    runDir: input.runDir,
    worktreesDir: input.worktreesDir,
    pool: false,
    ...(input.repoFullName ? { repoFullName: input.repoFullName } : {}),
    ...(input.gitToken ? { gitToken: input.gitToken } : {}),
    ...(input.dependencyCache !== undefined ? { dependencyCache: input.dependencyCache } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.onEvent ? { onEvent: input.onEvent } : {}),
  };
}

/** Where the run stands after setup: what the verifier needs. */
interface Opened {
  run: RunTaskInput;
  ws: Workspace;
  cmds: RunCommands;
  box: SandboxStatus;
  sandbox: ExecHandle;
  ready: Readiness | undefined;
}

/** Steps 1–4 of a run (src/run/run-task.ts), unchanged: worktree at the base, commands, sandbox and setup, the baseline. */
async function openRun(input: VerifyCommitsInput, run: RunTaskInput, rec: RunRecord, state: Partial<Opened>): Promise<Opened> {
  const prepared = await prepareWorkspace(run);
  const ws: Workspace = { ...prepared, hidePaths: [...prepared.hidePaths, ...(input.hide ?? [])] };
  state.ws = ws;
  let cmds = await resolveRunCommands(ws.wt.path, run.config);
  const deps = await dependencyCacheStep(dependencyCacheDir(run, ws), ws.wt.path, ws.wt.gitDir, cmds);
  cmds = deps.cmds;
  state.cmds = cmds;
  const settled: RunTaskInput = { ...run, config: cmds.config };
  const box = await sandboxStatus(run.config.sandbox);
  state.box = box;
  rec.record(runStart(settled, ws, box, cmds));
  const sandbox = await openSandbox(settled, ws, cmds.setup, deps.afterSetup, (reason) => {
    state.cmds = withoutSetup(state.cmds ?? cmds, reason);
  });
  state.sandbox = sandbox;
  const ready = await getReady(settled, ws, sandbox.exec, state.cmds);
  state.ready = ready;
  if (ready?.baseline && (!ready.ready || ready.full)) rec.record(stamp({ type: 'test_run', run: ready.baseline }));
  return { run: settled, ws, cmds: state.cmds, box, sandbox, ready };
}

function withoutSetup(cmds: RunCommands, reason: string): RunCommands {
  if (!cmds.setup) return cmds;
  const { setup, ...rest } = cmds;
  return {
    ...rest,
    setupSkipped: `the detected install \`${setup.command}\` failed, so the tests are tried without it; set setup.command in .github/proofpr.yml to the install that works here`,
    installUnavailable: { command: setup.command, reason: `it failed here: ${reason.replace(/\s*\n\s*/g, ' ')}` },
  };
}

function runStart(run: RunTaskInput, ws: Workspace, box: SandboxStatus, cmds: RunCommands): RunEvent {
  return stamp({
    type: 'run_start',
    runId: run.runId,
    task: { kind: run.task.kind, title: run.task.title },
    model: run.modelId,
    root: ws.wt.path,
    sandbox: box.sandbox,
    ...(box.reason ? { sandboxReason: box.reason } : {}),
    ...commandFacts(cmds),
  });
}

/**
 * The settings the verifier judges with: the run's, without the repository's hooks (they answer an
 * agent's tool calls and stops; here nothing stopped) and with red→green on unless the config turned it
 * off, as for a fix: a change is verified when a test that fails without it passes with it. Control
 * files and what runs later are open (listed for review, not refused); secrets are not.
 */
function verifySettings(config: RepoConfig): RunSettings {
  const settings = runSettingsOf(config);
  const hooks = Object.fromEntries(Object.keys(settings.hooks).map((k) => [k, []])) as unknown as RunSettings['hooks'];
  // A person's change to CI workflows, install-time code or other control files is theirs to make: listed for
  // review (infrastructureChanges), never the agent's wall that fails protected-paths. Secrets still fail it.
  return { ...settings, hooks, permissions: { ...settings.permissions, writable_workflows: true, control_reviewed: true } };
}

/** The head's tree in the worktree (tracked files added, changed and removed); HEAD stays on the base. */
async function putHead(ws: Workspace, headSha: string): Promise<void> {
  const env = { GIT_DIR: ws.wt.gitDir, GIT_WORK_TREE: ws.wt.path };
  await git(['read-tree', '-u', '--reset', headSha], { cwd: ws.wt.path, env });
}

/** The verifier's final check of the head: the harness's final run, red→green, the kept run, the gates. */
async function checkHead(input: VerifyCommitsInput, o: Opened, exec: ExecPort, rec: RunRecord): Promise<StopVerdict> {
  const settings = verifySettings(o.run.config);
  const onEvent = (ev: Parameters<typeof stamp>[0]): void => rec.record(stamp(ev));
  const verifier = createVerifier({
    root: o.ws.wt.path,
    gitDir: o.ws.wt.gitDir,
    ...(o.ready?.ready && o.ready.full ? { baseline: o.ready.full } : {}),
    runDir: o.run.runDir,
    settings,
    exec,
    baseSha: o.ws.wt.baseSha,
    hooks: createHookRunner({ config: settings.hooks, exec, root: o.ws.wt.path, onEvent }),
    onEvent,
    scratchDir: join(o.ws.runTmp, 'tmp'),
    taskKind: 'issue',
    commit: { message: `proofpr verify: ${input.headSha}`, identity: o.run.config.commit },
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const final = await verifier.finalCheck();
  if (!final.ok) await verifier.closingRun?.();
  return final;
}

/** The outcome of the head: verified when every gate passed on it; the PR's diff and files as the evidence's. */
async function judgeHead(input: VerifyCommitsInput, o: Opened, rec: RunRecord): Promise<RunOutcome> {
  await putHead(o.ws, input.headSha);
  const opts = o.ws.git;
  const changed = await filesChanged(o.ws.wt.path, o.ws.wt.baseSha, opts);
  const diff = await diffText(o.ws.wt.path, o.ws.wt.baseSha, MAX_DIFF_BYTES, opts);
  const later = await infrastructureChanges(o.ws.wt.path, o.ws.wt.baseSha, o.ws.wt.gitDir);
  const facts = {
    headSha: input.headSha,
    wip: false,
    keepWorktree: false,
    filesChanged: changed,
    diff,
    ...(later.length ? { infrastructureChanges: later } : {}),
  };
  if (changed.length === 0) return { ...facts, verdict: 'unverified', reason: 'no changes: the head holds the same files as the base' };
  const final = await checkHead(input, o, o.sandbox.exec, rec);
  if (input.signal?.aborted) return { ...facts, verdict: 'aborted', reason: 'cancelled' };
  const failed = final.gates.filter((g) => !g.passed).map((g) => g.name);
  return final.ok
    ? { ...facts, verdict: 'verified', reason: 'every gate passed on the head' }
    : { ...facts, verdict: 'unverified', reason: `the final check failed: ${failed.join(', ')}` };
}

/**
 * Verifies `headSha` against `baseSha` in `repoDir` (a scratch repository): the run folder, the evidence
 * and the exit code as `run` writes them (0 verified, 3 unverified).
 */
export async function verifyCommits(input: VerifyCommitsInput): Promise<RunTaskResult> {
  const run = runInputOf(input);
  const rec = await openRunRecord(run);
  const startedAt = new Date().toISOString();
  const state: Partial<Opened> = {};
  let outcome: RunOutcome;
  try {
    const o = await openRun(input, run, rec, state);
    outcome =
      o.ready && !o.ready.ready
        ? outcomeOf('unverified', `not ready, nothing was verified: ${o.ready.reason}`)
        : await judgeHead(input, o, rec);
  } catch (e) {
    outcome = await failRun({ ...run, mode: 'plan' }, state.ws, e, rec.record);
  }
  try {
    const said = {
      ...(state.box?.reason ? { sandboxReason: state.box.reason } : {}),
      ...commandFacts(state.cmds),
      ...(state.ready?.baseline ? { baseline: state.ready.baseline } : {}),
    };
    const facts = { startedAt, ws: state.ws, sandbox: state.sandbox?.sandbox ?? state.box?.sandbox, ...said };
    return await writeResult({ ...run, branch: input.headName }, rec, facts, outcome);
  } finally {
    await rec.close().catch(() => undefined);
    await state.sandbox?.dispose().catch(() => undefined);
    await state.ws?.cleanup(false);
  }
}
