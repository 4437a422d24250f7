import { runAgent, type RunResult } from '../agent/loop.js';
import { stamp, type RunEvent } from '../agent/events.js';
import type { ExecHandle } from '../workspace/exec.js';
import { assembleAgent } from './assemble-agent.js';
import { failRun } from './fail-run.js';
import { openSandbox } from './open-sandbox.js';
import { prepareWorkspace, type Workspace } from './prepare-workspace.js';
import { publishResult } from './publish-result.js';
import type { RunOutcome } from './run-outcome.js';
import { openRunRecord } from './run-record.js';
import type { RunTaskInput, RunTaskResult } from './run-task-types.js';
import { writeResult } from './write-result.js';

/**
 * One run, as its steps: prepare a worktree, open the sandbox, assemble the agent, run it, commit exactly
 * the verified tree (or a WIP commit), write the run folder, clean up. Evidence is written on every exit path.
 */
export async function runTask(input: RunTaskInput): Promise<RunTaskResult> {
  const rec = await openRunRecord(input);
  const startedAt = new Date().toISOString();
  let ws: Workspace | undefined;
  let sandbox: ExecHandle | undefined;
  let outcome: RunOutcome;
  try {
    // 1. A worktree on the task's branch at the base commit.
    ws = await prepareWorkspace(input);
    // 2. setup.command, then the sandboxed exec every tool, hook and test run goes through.
    sandbox = await openSandbox(input, ws);
    rec.record(runStart(input, ws, sandbox));
    // 3. Policy, hooks, verifier, toolbox and context for this task.
    const agent = await assembleAgent(input, ws, sandbox.exec);
    // 4. The agent loop, every event recorded as it happens.
    const result = await drain(runAgent(agent.task, agent.deps), rec.record);
    // 5. Commit the accepted tree, or save the work as WIP.
    outcome = await publishResult(input, ws, result, agent.deps.verifier?.testedCommit?.());
  } catch (e) {
    outcome = await failRun(input, ws, e, rec.record);
  }
  try {
    // 6. run_end, the run folder and the result.
    return await writeResult(input, rec, { startedAt, ws, sandbox: sandbox?.sandbox }, outcome);
  } finally {
    // 7. Clean up: the transcript, the sandbox's processes, the scratch folder, the worktree.
    await rec.close().catch(() => undefined);
    await sandbox?.dispose().catch(() => undefined);
    await ws?.cleanup(outcome.keepWorktree);
  }
}

function runStart(input: RunTaskInput, ws: Workspace, sandbox: ExecHandle): RunEvent {
  const t = input.task;
  const task = { kind: t.kind, title: t.title, ...(t.issue !== undefined ? { issue: t.issue } : {}) };
  return stamp({ type: 'run_start', runId: input.runId, task, model: input.modelId, root: ws.wt.path, sandbox: sandbox.sandbox });
}

async function drain(gen: AsyncGenerator<RunEvent, RunResult>, record: (ev: RunEvent) => void): Promise<RunResult> {
  for (;;) {
    const n = await gen.next();
    if (n.done) return n.value;
    record(n.value);
  }
}
