import { logger } from '../log.js';
import { readDenyPredicate } from '../agent/permissions/read-deny.js';
import { createExec, type ExecHandle, type ExecOptions } from '../workspace/exec.js';
import type { Workspace } from './prepare-workspace.js';
import type { RunTaskInput } from './run-task-types.js';

const log = logger('run-task');

/** setup.command failed: the run is aborted (not an internal error), with the command's output tail. */
export class SetupError extends Error {}

/**
 * Step 2: runs `setup.command` (fix mode), then opens the exec every tool, hook and test run goes through:
 * bubblewrap when available, scrubbed environment, no network.
 */
export async function openSandbox(input: RunTaskInput, ws: Workspace): Promise<ExecHandle> {
  const { config } = input;
  const base: ExecOptions = {
    root: ws.wt.path,
    runTmp: ws.runTmp,
    sandbox: config.sandbox,
    extraEnvNames: config.env,
    gitDir: ws.wt.gitDir,
    hidePaths: ws.hidePaths,
    logger: log,
    // Secret files masked, control files read-only (docs/security.md); Read(...) allow rules name secrets tests may read.
    protect: {
      writable: config.permissions.writable,
      writableWorkflows: config.permissions.writable_workflows,
      readable: readDenyPredicate(ws.wt.path, config.permissions.allow),
    },
    // Plan mode is read-only for real: the worktree itself is mounted read-only.
    ...(input.mode === 'plan' ? { readOnlyWorktree: true } : {}),
  };
  if (config.setup.command && input.mode === 'fix') await runSetup(config.setup.command, config.setup.timeout_min, base);
  return createExec(base);
}

/**
 * `setup.command` (e.g. `npm ci`): run by the harness before the agent, in the worktree at the base commit,
 * with network but otherwise the same sandbox and scrubbed environment.
 */
async function runSetup(command: string, timeoutMin: number, base: ExecOptions): Promise<void> {
  // The maintainer's own setup on the base commit keeps the checkout as it is (a private registry token in .npmrc included).
  const { protect: _protect, ...unprotected } = base;
  const h = await createExec({ ...unprotected, network: true });
  try {
    const r = await h.exec({ command, cwd: base.root, timeoutMs: timeoutMin * 60_000 });
    if (r.exitCode !== 0) {
      const tail = r.output.slice(-1500);
      const how = r.timedOut ? `timed out after ${timeoutMin} min` : `exited ${r.exitCode}`;
      throw new SetupError(`setup.command \`${command}\` ${how}; fix it in .github/proofpr.yml. Last output:\n${tail}`);
    }
  } finally {
    await h.dispose();
  }
}
