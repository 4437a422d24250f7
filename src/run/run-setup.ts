import { createExec, type ExecOptions } from '../workspace/exec.js';
import type { CommandChoice } from '../detect/resolve-commands.js';

export type SetupResult = { ok: true; durationMs: number } | { ok: false; reason: string };

/** At most this many lines of the command's own output go into the message (the rest is in the log). */
const SHOWN_LINES = 3;

/**
 * The lines of a failed command's output that say why: the first ones that read as an error (npm prints
 * its error before a page of usage; pip and cargo end with it), else the last ones. A line naming a path
 * of the run's scratch folder is left out: that folder is gone when the message is read (the full
 * output, those lines included, is in the kept log).
 */
export function telltaleLines(output: string, gone: readonly string[] = []): string[] {
  const lines = output
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '' && !gone.some((g) => g !== '' && l.includes(g)));
  // A line that says something: an error word and at least two other words (not npm's bare `npm error`).
  const errors = lines.filter(
    (l) => /\b(error|ERR!|fatal|failed|not found|no such|cannot|unable)\b/i.test(l) && l.trim().split(/\s+/).length >= 3,
  );
  const picked = errors.length > 0 ? errors.slice(0, SHOWN_LINES) : lines.slice(-SHOWN_LINES);
  return picked.map((l) => (l.length > 200 ? `${l.slice(0, 197)}...` : l));
}

/**
 * `setup.command` (configured or detected, e.g. `npm ci`): run by the harness in the worktree at the base
 * commit before anything else, with network but otherwise the same sandbox and scrubbed environment.
 * Its whole output goes to `logFile` (kept in the run folder). A failure is one message of at most 8
 * lines: the command and where it came from, how it ended, the lines of its output that say why, the
 * log's path, and the fix (docs/troubleshooting.md quotes it).
 */
export async function runSetup(
  setup: Pick<CommandChoice, 'command'> & Partial<CommandChoice>,
  timeoutMin: number,
  base: ExecOptions,
  logFile?: string,
): Promise<SetupResult> {
  // The maintainer's own setup on the base commit keeps the checkout as it is (a private registry token in .npmrc included).
  const { protect: _protect, ...unprotected } = base;
  const h = await createExec({ ...unprotected, network: true });
  try {
    const r = await h.exec({
      command: setup.command,
      cwd: base.root,
      timeoutMs: timeoutMin * 60_000,
      ...(logFile ? { outputFile: logFile } : {}),
    });
    if (r.exitCode === 0) return { ok: true, durationMs: r.durationMs };
    return { ok: false, reason: setupFailure(setup, timeoutMin, r, { logFile: r.outputPath, gone: [base.runTmp] }) };
  } finally {
    await h.dispose();
  }
}

function setupFailure(
  setup: Pick<CommandChoice, 'command'> & Partial<CommandChoice>,
  timeoutMin: number,
  r: { exitCode: number | null; timedOut?: boolean; output: string },
  where: { logFile?: string | undefined; gone: string[] },
): string {
  const how = r.timedOut ? `timed out after ${timeoutMin} min (setup.timeout_min)` : `exited ${r.exitCode ?? 'without a code'}`;
  const from = setup.source === 'detected' ? `detected: ${setup.why ?? 'from the repository'}` : 'setup.command in .github/proofpr.yml';
  const fix =
    setup.source === 'detected'
      ? `make \`${setup.command}\` pass on a fresh clone of the base commit, or set setup.command in .github/proofpr.yml to the install that does.`
      : `make \`${setup.command}\` pass on a fresh clone of the base commit, or change setup.command in .github/proofpr.yml.`;
  return [
    `setup failed: \`${setup.command}\` (${from}) ${how} before the agent started.`,
    ...telltaleLines(r.output, where.gone).map((l) => `  ${l}`),
    ...(where.logFile ? [`Full output: ${where.logFile}`] : []),
    `Fix: ${fix}`,
  ].join('\n');
}
