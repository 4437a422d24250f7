import { dirname, join } from 'node:path';
import { logger } from '../log.js';
import { readDenyPredicate } from '../agent/permissions/read-deny.js';
import { markSandboxMasked, readableMatcher, openWorld, worldMasked } from '../workspace/world.js';
import { snapshotHome } from '../workspace/fresh-home.js';
import { createExec, type ExecHandle, type ExecOptions } from '../workspace/exec.js';
import { recordBaseInstall } from '../workspace/linked-dirs.js';
import type { CommandChoice } from '../detect/resolve-commands.js';
import type { Workspace } from './prepare-workspace.js';
import { runSetup } from './run-setup.js';
import type { RunTaskInput } from './run-task-types.js';

const log = logger('run-task');

/** setup.command failed: the run is aborted (not an internal error), with the command's output tail. */
export class SetupError extends Error {}

/**
 * Step 2: runs `setup.command` (fix mode; configured or detected, see run-setup.ts), then opens the exec every tool, hook and test run goes through:
 * bubblewrap when available, scrubbed environment, no network. A configured setup that fails aborts the
 * run; a detected one that fails is handed to `onDetectedSetupFailed` (when given) and the run goes on:
 * readiness tries the tests without it (check-readiness.ts).
 */
export async function openSandbox(
  input: RunTaskInput,
  ws: Workspace,
  setup?: CommandChoice,
  afterSetup?: () => Promise<void>,
  onDetectedSetupFailed?: (reason: string) => void,
): Promise<ExecHandle> {
  const { config } = input;
  const readable = readableFor(ws.wt.path, config.permissions.allow, config.permissions.readable);
  const base: ExecOptions = {
    root: ws.wt.path,
    runTmp: ws.runTmp,
    sandbox: config.sandbox,
    extraEnvNames: config.env,
    gitDir: ws.wt.gitDir,
    // The agent's sanitized git, cached per base commit next to the worktrees (src/workspace/agent-git.ts).
    agentGitCache: join(dirname(input.worktreesDir), 'agent-git'),
    hidePaths: ws.hidePaths,
    // Output files are redacted as they are written; the git token is a known value besides the environment's.
    ...(input.gitToken ? { secrets: [input.gitToken] } : {}),
    logger: log,
    // Secret files masked, control files read-only (docs/security.md); permissions.readable and Read(...) allow rules open a secret.
    protect: { writable: config.permissions.writable, writableWorkflows: config.permissions.writable_workflows, readable },
    // Plan mode is read-only for real: the worktree itself is mounted read-only.
    ...(input.mode === 'plan' ? { readOnlyWorktree: true } : {}),
  };
  // What the file tools see is what the sandbox shows (src/workspace/world.ts); closed at clean-up.
  // The same opt-ins as the sandbox's: the harness's clean checkouts share this world (pristine-checkout.ts).
  openWorld(ws.wt.path, { opened: readable, masked: config.permissions.masked });
  worldMasked(ws.wt.path); // what is hidden at the start: the evidence's `masked`
  const command = setup ?? (config.setup.command ? { command: config.setup.command } : undefined);
  if (command && input.mode === 'fix') {
    const r = await runSetup(command, config.setup.timeout_min, base, `${input.runDir}/setup.log`);
    if (!r.ok && (setup?.source !== 'detected' || !onDetectedSetupFailed)) throw new SetupError(r.reason);
    if (!r.ok) onDetectedSetupFailed?.(r.reason);
    // Before the exec opens: a folder the dependency cache took over is bound read-only like a linked one.
    else await afterSetup?.();
  }
  // The harness's own test runs get a fresh home holding only what setup left here (fresh-home.ts),
  // and borrow only the dependency folders the base's install has now, before the agent runs (linked-dirs.ts).
  await snapshotHome(ws.runTmp);
  await recordBaseInstall(ws.wt.path, ws.wt.gitDir);
  const handle = await createExec(base);
  // A search in the sandbox reads these files empty: the policy lets it run (search-scope.ts).
  markSandboxMasked(ws.wt.path, handle.masked);
  return handle;
}

/** A secret-looking path opened by permissions.readable or named by a Read(...) allow rule. */
function readableFor(root: string, allow: readonly string[], readable: readonly string[]): (rel: string) => boolean {
  const byRule = readDenyPredicate(root, [...allow]);
  const byConfig = readableMatcher(readable);
  return (rel) => byConfig(rel) || byRule(rel);
}
