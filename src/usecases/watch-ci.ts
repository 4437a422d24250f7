/**
 * Watch the repository's own CI on the commit proofpr pushed, until every check run and commit status
 * of that sha completed or `ci.wait_min` passed. Polling with backoff; a `wake` signal (a check_suite /
 * check_run / status webhook for the sha) cuts a wait short. The clock is injected: tests never sleep.
 *
 * Final states: passed | failed (all completed), timed-out (still running at the deadline), not-run
 * (nothing appeared within the grace period, or a workflow waits for approval) with its likely cause.
 */
import type { CiEvidence, CiPort } from './ci-types.js';
import { ciSnapshot } from './ci-state.js';
import { notRunCause } from './ci-not-run-cause.js';

export interface Clock {
  now(): number;
  /** Resolves after `ms`, or earlier when `wake` fires or `signal` aborts. */
  sleep(ms: number, wake?: Promise<void>, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, wake, signal) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      const done = (): void => {
        clearTimeout(t);
        resolve();
      };
      void wake?.then(done, done);
      signal?.addEventListener('abort', done, { once: true });
    }),
};

export interface WatchCiInput {
  sha: string;
  /** ci.wait_min (0 = do not watch). */
  waitMin: number;
  /** proofpr's own check run name: not part of what CI said. */
  ownCheckName: string;
  ownAppSlug?: string;
  pushedByAction: boolean;
  changedFiles: string[];
  signal?: AbortSignal;
  /** A promise for the next webhook about this sha (called before each wait). */
  wake?: () => Promise<void>;
  /** No check, status or workflow run by then means not-run (default min(wait, 5 min)). */
  graceMs?: number;
}

/** 10 s, 20 s, 40 s, then every 60 s. */
export function backoffMs(poll: number): number {
  return Math.min(60_000, 10_000 * 2 ** Math.max(0, poll));
}

/** One look at CI: a final answer, or how long to wait before the next look (poll 0, 1, … since `start`). */
export type CiStep = { done: CiEvidence } | { waitMs: number };

export async function ciWatchStep(
  inp: WatchCiInput,
  at: { start: number; poll: number },
  deps: { ci: CiPort; now: number },
): Promise<CiStep> {
  const { ci, now } = deps;
  const { start, poll } = at;
  const deadline = start + inp.waitMin * 60_000;
  const grace = inp.graceMs ?? Math.min(inp.waitMin * 60_000, 5 * 60_000);
  const [runs, statuses] = await Promise.all([ci.listCheckRuns(inp.sha), ci.listCommitStatuses(inp.sha)]);
  const snap = ciSnapshot(runs, statuses, { checkName: inp.ownCheckName, ...(inp.ownAppSlug ? { appSlug: inp.ownAppSlug } : {}) });
  if (snap.state === 'passed' || snap.state === 'failed') return { done: { sha: inp.sha, state: snap.state, checks: snap.checks } };
  if (snap.state === 'none') {
    const workflowRuns = await ci.listWorkflowRuns(inp.sha);
    const waiting = workflowRuns.some(
      (r) => r.conclusion === 'action_required' || r.status === 'action_required' || r.status === 'waiting',
    );
    if (waiting || (now - start >= grace && workflowRuns.every((r) => r.status === 'completed'))) {
      const workflows = await ci.workflowTriggers(inp.sha).catch(() => undefined);
      return {
        done: {
          sha: inp.sha,
          state: 'not-run',
          checks: [],
          cause: notRunCause({ workflowRuns, workflows, pushedByAction: inp.pushedByAction, changedFiles: inp.changedFiles }),
        },
      };
    }
  }
  if (now >= deadline || inp.signal?.aborted) {
    const running = snap.checks.filter((c) => c.conclusion === 'pending').map((c) => c.name);
    const minutes = Math.round((now - start) / 60_000);
    const cause = inp.signal?.aborted
      ? 'the watch was stopped before CI finished'
      : `still running after ${minutes} min (ci.wait_min: ${inp.waitMin})${running.length > 0 ? `: ${running.join(', ')}` : ''}. Fix: raise ci.wait_min, or look at the checks on the PR.`;
    return { done: { sha: inp.sha, state: 'timed-out', checks: snap.checks, cause } };
  }
  return { waitMs: Math.min(backoffMs(poll), deadline - now) };
}

export async function watchCi(inp: WatchCiInput, deps: { ci: CiPort; clock: Clock }): Promise<CiEvidence | undefined> {
  if (inp.waitMin <= 0) return undefined;
  const { ci, clock } = deps;
  const start = clock.now();
  for (let poll = 0; ; poll++) {
    const step = await ciWatchStep(inp, { start, poll }, { ci, now: clock.now() });
    if ('done' in step) return step.done;
    await clock.sleep(step.waitMs, inp.wake?.(), inp.signal);
  }
}
