import { join } from 'node:path';
import type { ExecPort } from '../workspace/exec-port.js';
import { checkReadiness, type Readiness } from './check-readiness.js';
import type { Workspace } from './prepare-workspace.js';
import type { RunCommands } from './resolve-run-commands.js';
import type { RunTaskInput } from './run-task-types.js';

/**
 * Step 4, before the first model request: a fix run needs a test command whose counts can be read on the
 * base (a sweep passes the baseline it already took). Plan runs change nothing and skip it. A package
 * manager the test command calls that is neither installed nor available through corepack
 * (resolveRunCommands) stops here; one only the install needs does not: the tests are tried without the
 * install, and the baseline stops the run only when they fail for a missing module.
 */
export async function getReady(input: RunTaskInput, ws: Workspace, exec: ExecPort, cmds: RunCommands): Promise<Readiness | undefined> {
  if (input.mode !== 'fix') return undefined;
  // The package manager is missing and corepack cannot provide it: setup was left out, nothing can run.
  if (cmds.notReady) return { ready: false, reason: cmds.notReady };
  if (input.baseline && cmds.test) return { ready: true, baseline: input.baseline };
  return checkReadiness({
    root: ws.wt.path,
    gitDir: ws.wt.gitDir,
    config: cmds.config,
    ...(cmds.test ? { test: cmds.test } : {}),
    ...(cmds.missing ? { missing: cmds.missing } : {}),
    ...(cmds.installUnavailable ? { skippedInstall: cmds.installUnavailable } : {}),
    exec,
    runDir: input.runDir,
    baseSha: ws.wt.baseSha,
    scratchDir: join(ws.runTmp, 'tmp'),
    ...(input.signal ? { signal: input.signal } : {}),
  });
}
