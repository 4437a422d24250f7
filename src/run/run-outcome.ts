import type { Verdict } from '../agent/events.js';
import type { FileStat } from '../workspace/diff-stat.js';
import type { LeftOut } from '../workspace/temp-index.js';

/** How one run ended, as the steps after the agent decided it; the evidence and the result are built from it. */
export interface RunOutcome {
  verdict: Verdict;
  reason: string;
  /** The commit on the branch holding the work (verified or WIP); undefined when nothing was committed. */
  headSha?: string;
  /** True when headSha is a WIP commit of unverified or aborted work. */
  wip: boolean;
  /** Keep the worktree after the run: the work could not be committed and must not be lost. */
  keepWorktree: boolean;
  filesChanged: FileStat[];
  diff: string;
  /** Files the WIP commit could not take (kept in the worktree), for evidence.leftOut. */
  leftOut?: LeftOut[];
  /** What in the change would run later (lifecycle scripts, install-time code, workflows, hooks), for evidence.infrastructureChanges. */
  infrastructureChanges?: Array<{ path: string; why: string }>;
}

/** The outcome before any step ran: an error, with nothing changed. */
export function outcomeOf(verdict: Verdict, reason: string): RunOutcome {
  return { verdict, reason, wip: false, keepWorktree: false, filesChanged: [], diff: '' };
}
