/** The status comment of a queued run, the same for `/agent fix`, `/agent plan` and a PR follow-up. */
import type { RepoConfig } from '../config/repo-config.js';
import { redactSecrets } from '../github/sanitize.js';
import type { Phase, StatusState } from '../github/status-comment.js';
import { createStatusReporter, type StatusReporter } from '../github/status-reporter.js';
import type { UsecaseDeps } from './ports.js';

/** The reporter for a run's status comment, starting at `queued` with the run's limits. */
export function runStatus(
  deps: UsecaseDeps,
  inp: { runId: string; statusCommentId: number; config: RepoConfig },
  requester: string,
  mode: StatusState['mode'],
): StatusReporter {
  const cfg = inp.config;
  return statusReporterOn(deps, inp.statusCommentId, {
    runId: inp.runId,
    phase: 'queued',
    requester,
    mode,
    maxTurns: cfg.max_turns,
    budgetUsd: cfg.max_cost_usd,
  });
}

/** The reporter for an existing status comment, from `state`, at the deps' edit interval. */
export function statusReporterOn(
  deps: Pick<UsecaseDeps, 'github' | 'progressIntervalMs' | 'now'>,
  commentId: number,
  state: StatusState,
): StatusReporter {
  return createStatusReporter(deps.github, commentId, state, {
    ...(deps.progressIntervalMs !== undefined ? { intervalMs: deps.progressIntervalMs } : {}),
    ...(deps.now ? { now: deps.now } : {}),
  });
}

/** A run that threw: the status comment names the phase and the (redacted, first-line) error; the run is done with verdict error. */
export async function recordRunError(deps: UsecaseDeps, status: StatusReporter, runId: string, phase: Phase, e: unknown): Promise<void> {
  const message =
    redactSecrets((e as Error).message ?? String(e))
      .split('\n')[0]
      ?.slice(0, 300) ?? 'unknown error';
  await status.set({ phase: 'failed', failedPhase: phase, error: message, verdict: 'error' }, true);
  await deps.runs.update(runId, { status: 'done', verdict: 'error' });
}
