import { createExec, type ExecOptions } from '../workspace/exec.js';
import type { CommandChoice } from '../detect/resolve-commands.js';

export type SetupResult = { ok: true; durationMs: number } | { ok: false; reason: string };

/**
 * `setup.command` (configured or detected, e.g. `npm ci`): run by the harness in the worktree at the base
 * commit before anything else, with network but otherwise the same sandbox and scrubbed environment.
 * A failure names the command, where it came from, and the tail of its output.
 */
export async function runSetup(
  setup: Pick<CommandChoice, 'command'> & Partial<CommandChoice>,
  timeoutMin: number,
  base: ExecOptions,
): Promise<SetupResult> {
  // The maintainer's own setup on the base commit keeps the checkout as it is (a private registry token in .npmrc included).
  const { protect: _protect, ...unprotected } = base;
  const h = await createExec({ ...unprotected, network: true });
  try {
    const r = await h.exec({ command: setup.command, cwd: base.root, timeoutMs: timeoutMin * 60_000 });
    if (r.exitCode === 0) return { ok: true, durationMs: r.durationMs };
    const tail = r.output.slice(-1500);
    const how = r.timedOut ? `timed out after ${timeoutMin} min (setup.timeout_min)` : `exited ${r.exitCode}`;
    const from =
      setup.source === 'detected'
        ? ` (detected: ${setup.why}; set setup.command in .github/proofpr.yml to change it)`
        : '; fix it in .github/proofpr.yml';
    return { ok: false, reason: `setup.command \`${setup.command}\` ${how}${from}. Last output:\n${tail}` };
  } finally {
    await h.dispose();
  }
}
