import { runAgent, type RunResult } from '../agent/loop.js';
import { stamp, type RunEvent } from '../agent/events.js';
import type { ExecHandle } from '../workspace/exec.js';
import { assembleAgent } from './assemble-agent.js';
import { failRun } from './fail-run.js';
import { openSandbox } from './open-sandbox.js';
import { prepareWorkspace, type Workspace } from './prepare-workspace.js';
import { publishResult } from './publish-result.js';
import { openRunRecord } from './run-record.js';
import type { RunTaskInput, RunTaskResult } from './run-task-types.js';
import { writeResult } from './write-result.js';
import type { Evidence } from '../agent/evidence/types.js';
import { sandboxStatus, type SandboxStatus } from '../workspace/sandbox-status.js';
import type { Readiness } from './check-readiness.js';
import { getReady } from './get-ready.js';
import { resolveRunCommands, type RunCommands } from './resolve-run-commands.js';
import { outcomeOf, type RunOutcome } from './run-outcome.js';
import { secondLookStep } from './second-look-step.js';
import { runSettingsOf } from './run-settings.js';
import { dependencyCacheDir } from './dependency-cache-dir.js';
import { dependencyCacheStep } from './dependency-cache-step.js';
import { startRunWatchdog } from './watchdog.js';

/**
 * One run, as its steps: prepare a worktree, open the sandbox, assemble the agent, run it, commit exactly
 * the verified tree (or a WIP commit), write the run folder, clean up. Evidence is written on every exit path.
 */
export async function runTask(input: RunTaskInput): Promise<RunTaskResult> {
  const rec = await openRunRecord(input);
  const startedAt = new Date().toISOString();
  // timeout_min from outside the main thread: a stuck harness is still ended (exit 4), its processes killed.
  const watchdog = input.exitOnStuck ? startRunWatchdog(input, startedAt, rec.secrets) : undefined;
  let ws: Workspace | undefined;
  let sandbox: ExecHandle | undefined;
  let outcome: RunOutcome;
  let cmds: RunCommands | undefined;
  let box: SandboxStatus | undefined;
  let ready: Readiness | undefined;
  try {
    // 1. A worktree on the task's branch at the base commit.
    ws = await prepareWorkspace(input);
    // 2. The test and setup commands: configured, else detected from the worktree at the base.
    cmds = await resolveRunCommands(ws.wt.path, input.config);
    // 2b. A frozen install the dependency cache holds is linked instead of run (the App's mirrors).
    const deps = await dependencyCacheStep(dependencyCacheDir(input, ws), ws.wt.path, ws.wt.gitDir, cmds);
    cmds = deps.cmds;
    const run: RunTaskInput = { ...input, config: cmds.config };
    // What the agent core is told (test command, gates, permissions, hooks, limits): built once, here.
    const settings = runSettingsOf(cmds.config);
    // 3. Said at the start: the sandbox (and why none) and the commands; then setup.command and the sandboxed exec.
    box = await sandboxStatus(input.config.sandbox);
    rec.record(runStart(run, ws, box, cmds));
    sandbox = await openSandbox(run, ws, cmds.setup, deps.afterSetup, (reason) => (cmds = cmds && withoutFailedSetup(cmds, reason)));
    // 4. Readiness: the test command once on the base, before any model request.
    ready = await getReady(run, ws, sandbox.exec, cmds);
    // The readiness run is the run's baseline test run (kind 'baseline'), as when the verifier takes it itself.
    if (ready?.baseline && (!ready.ready || ready.full)) rec.record(stamp({ type: 'test_run', run: ready.baseline }));
    if (ready && !ready.ready) {
      outcome = outcomeOf('unverified', `not ready, nothing was spent: ${ready.reason}`);
    } else {
      // 5. Policy, hooks, verifier, toolbox and context for this task.
      const step = {
        input: ready?.ready && ready.full ? { ...run, verifierBaseline: ready.full } : run,
        settings,
        ws,
        exec: sandbox.exec,
        transcripts: rec.openTranscript,
      };
      const agent = await assembleAgent(step);
      // 6. The agent loop, every event recorded as it happens.
      const ran = await drain(runAgent(agent.task, agent.deps), rec.record);
      // 6b. The second look (review.enabled): findings into the evidence; with block_on: high, a gate.
      const result = await secondLookStep(step, ran, rec, Date.parse(startedAt), agent.deps.spend);
      // 7. Commit the accepted tree, or save the work as WIP.
      outcome = await publishResult(run, ws, result, agent.deps.verifier?.testedCommit?.());
    }
  } catch (e) {
    outcome = await failRun(input, ws, e, rec.record);
  }
  try {
    // 8. run_end, the run folder and the result.
    const said = {
      ...(box?.reason ? { sandboxReason: box.reason } : {}),
      ...commandFacts(cmds),
      ...(ready?.baseline ? { baseline: ready.baseline } : {}),
    };
    return await writeResult(input, rec, { startedAt, ws, sandbox: sandbox?.sandbox ?? box?.sandbox, ...said }, outcome);
  } finally {
    // 9. Clean up: the watchdog, the transcript, the sandbox's processes, the scratch folder, the worktree.
    watchdog?.stop();
    await rec.close().catch(() => undefined);
    await sandbox?.dispose().catch(() => undefined);
    await ws?.cleanup(outcome.keepWorktree);
  }
}

/**
 * A detected install that failed (a pip install a system Python refuses, a registry out of reach): not the
 * maintainer's command, so no abort; the tests are tried without it and readiness decides (a missing
 * module then stops the run, naming the install and what it said).
 */
function withoutFailedSetup(cmds: RunCommands, reason: string): RunCommands {
  if (!cmds.setup) return cmds;
  const { setup, ...rest } = cmds;
  const said = reason.split('\n').slice(1, 2).join('').trim();
  return {
    ...rest,
    setupSkipped: `the detected install \`${setup.command}\` failed, so the tests are tried without it${said ? ` (${said})` : ''}; set setup.command in .github/proofpr.yml to the install that works here`,
    installUnavailable: { command: setup.command, reason: `it failed here: ${reason.replace(/\s*\n\s*/g, ' ')}` },
  };
}

function runStart(input: RunTaskInput, ws: Workspace, box: SandboxStatus, cmds: RunCommands): RunEvent {
  const t = input.task;
  const task = { kind: t.kind, title: t.title, ...(t.issue !== undefined ? { issue: t.issue } : {}) };
  const said = { ...(box.reason ? { sandboxReason: box.reason } : {}), ...commandFacts(cmds) };
  return stamp({ type: 'run_start', runId: input.runId, task, model: input.modelId, root: ws.wt.path, sandbox: box.sandbox, ...said });
}

/** Evidence `test` and `setup`: which commands, configured or detected, and why. */
export function commandFacts(cmds: RunCommands | undefined): {
  test?: NonNullable<Evidence['test']>;
  setup?: NonNullable<Evidence['setup']>;
} {
  if (!cmds) return {};
  const test = cmds.test && { command: cmds.test.command, source: cmds.test.source, why: cmds.test.why };
  const setup = cmds.setup
    ? { command: cmds.setup.command, source: cmds.setup.source, why: cmds.setup.why }
    : cmds.setupSkipped
      ? { why: cmds.setupSkipped }
      : undefined;
  return { ...(test ? { test } : {}), ...(setup ? { setup } : {}) };
}

async function drain(gen: AsyncGenerator<RunEvent, RunResult>, record: (ev: RunEvent) => void): Promise<RunResult> {
  for (;;) {
    const n = await gen.next();
    if (n.done) return n.value;
    record(n.value);
  }
}
