/**
 * Watch the repository's own CI on the commit proofpr pushed, until every check run and commit status
 * of that sha completed or `ci.wait_min` passed. Polling with backoff; a `wake` signal (a check_suite /
 * check_run / status webhook for the sha) cuts a wait short. The clock is injected: tests never sleep.
 *
 * Final states (CONTRACT §11): passed | failed (all completed); awaiting-approval (a workflow run for the
 * sha is held until someone with write access approves it: reported at once, never waited on); not-run
 * (no workflow at the pushed commit starts on a pull request: known before any wait; or nothing appeared
 * within the grace period) with its likely cause; pending (still running at the deadline).
 */
import type { CiEvidence, CiPort, WorkflowRunInfo } from './ci-types.js';
import { ciSnapshot } from './ci-state.js';
import { notRunCause, type NotRunFacts } from './ci-not-run-cause.js';

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

/** A workflow run held until someone with write access approves it (GitHub: `action_required`, or `waiting` for an environment). */
export function heldForApproval(r: WorkflowRunInfo): boolean {
  return r.conclusion === 'action_required' || r.status === 'action_required' || r.status === 'waiting';
}

/** Does any workflow start on the events a pushed PR head raises? */
const runsOnPullRequest = (w: { events: string[] }): boolean =>
  w.events.some((e) => e === 'pull_request' || e === 'pull_request_target' || e === 'push');

function awaitingApproval(sha: string, held: Array<{ name: string; url: string }>, checks: CiEvidence['checks']): CiEvidence {
  const unique = [...new Map(held.map((h) => [h.name, h])).values()];
  const named = unique.map((r) => `"${r.name}"${r.url ? ` (${r.url})` : ''}`).join(', ');
  return {
    sha,
    state: 'awaiting-approval',
    checks,
    cause: `awaiting approval: someone with write access to the repository must approve ${named} (GitHub holds workflow runs for pull requests a bot opened). Fix: open the run and choose "Approve and run"; proofpr did not wait.`,
  };
}

function notRun(inp: WatchCiInput, workflowRuns: WorkflowRunInfo[], workflows: NotRunFacts['workflows']): CiEvidence {
  const cause = notRunCause({ workflowRuns, workflows, pushedByAction: inp.pushedByAction, changedFiles: inp.changedFiles });
  return { sha: inp.sha, state: 'not-run', checks: [], cause };
}

export async function ciWatchStep(
  inp: WatchCiInput,
  at: { start: number; poll: number },
  deps: { ci: CiPort; now: number },
): Promise<CiStep> {
  const { ci, now } = deps;
  const { start, poll } = at;
  const deadline = start + inp.waitMin * 60_000;
  const grace = inp.graceMs ?? Math.min(inp.waitMin * 60_000, 5 * 60_000);
  const [runs, statuses, workflowRuns] = await Promise.all([
    ci.listCheckRuns(inp.sha),
    ci.listCommitStatuses(inp.sha),
    ci.listWorkflowRuns(inp.sha).catch(() => [] as WorkflowRunInfo[]),
  ]);
  // A check concluded `action_required` is a run held for approval, not a failure.
  const counted = runs.filter((c) => c.conclusion !== 'action_required');
  const snap = ciSnapshot(counted, statuses, { checkName: inp.ownCheckName, ...(inp.ownAppSlug ? { appSlug: inp.ownAppSlug } : {}) });
  if (snap.state === 'failed') return { done: { sha: inp.sha, state: 'failed', checks: snap.checks } };
  const held = [...workflowRuns.filter(heldForApproval), ...runs.filter((c) => c.conclusion === 'action_required')];
  if (held.length > 0) return { done: awaitingApproval(inp.sha, held, snap.checks) };
  if (snap.state === 'passed') return { done: { sha: inp.sha, state: 'passed', checks: snap.checks } };
  if (snap.state === 'none' && workflowRuns.length === 0 && (poll === 0 || now - start >= grace)) {
    // Known before any wait: no workflow at the pushed commit starts on a pull request or a push.
    const workflows = await ci.workflowTriggers(inp.sha).catch(() => undefined);
    if (workflows && !workflows.some(runsOnPullRequest)) return { done: notRun(inp, workflowRuns, workflows) };
    if (now - start >= grace) return { done: notRun(inp, workflowRuns, workflows) };
  } else if (snap.state === 'none' && now - start >= grace && workflowRuns.every((r) => r.status === 'completed')) {
    return { done: notRun(inp, workflowRuns, await ci.workflowTriggers(inp.sha).catch(() => undefined)) };
  }
  if (now >= deadline || inp.signal?.aborted) {
    const running = snap.checks.filter((c) => c.conclusion === 'pending').map((c) => c.name);
    const minutes = Math.round((now - start) / 60_000);
    const cause = inp.signal?.aborted
      ? 'the watch was stopped before CI finished'
      : `still running after ${minutes} min (ci.wait_min: ${inp.waitMin})${running.length > 0 ? `: ${running.join(', ')}` : ''}. Fix: raise ci.wait_min, or look at the checks on the PR.`;
    return { done: { sha: inp.sha, state: 'pending', checks: snap.checks, cause } };
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
