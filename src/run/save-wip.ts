import { wipCommit } from '../workspace/publish.js';
import type { LeftOut } from '../workspace/temp-index.js';
import { commitMessage } from './commit-message.js';
import type { Workspace } from './prepare-workspace.js';
import type { RunOutcome } from './run-outcome.js';
import type { RunTaskInput } from './run-task-types.js';

/**
 * Never lose work: commits unverified work as WIP (config pr.wip_commit); when that is off or fails,
 * the worktree is kept instead and the reason says where the work is. A file git cannot commit (a
 * path it refuses, an unreadable file) never fails the commit: it is left out and the reason names it.
 */
export async function saveWip(input: RunTaskInput, ws: Workspace, outcome: RunOutcome): Promise<RunOutcome> {
  const { config } = input;
  const where = ws.wt.path;
  if (!config.pr.wip_commit) {
    return { ...outcome, keepWorktree: true, reason: `${outcome.reason} (work left in the worktree ${where}: pr.wip_commit is off)` };
  }
  try {
    const c = await wipCommit({
      worktree: where,
      message: commitMessage(input.task),
      identity: config.commit,
      ...(input.coAuthor ? { coAuthor: input.coAuthor } : {}),
      gitDir: ws.wt.gitDir,
      protect: { writable: config.permissions.writable, writableWorkflows: config.permissions.writable_workflows },
    });
    // What git could not take stays on disk: the worktree is kept so those files are not lost either.
    const left = c.leftOut?.length
      ? { reason: `${outcome.reason} (${leftOutText(c.leftOut, where)})`, keepWorktree: true, leftOut: c.leftOut }
      : {};
    return 'sha' in c ? { ...outcome, ...left, headSha: c.sha, wip: true } : { ...outcome, ...left };
  } catch (e) {
    return {
      ...outcome,
      keepWorktree: true,
      reason: `${outcome.reason} (the WIP commit failed: ${(e as Error).message}; the work is kept in ${where})`,
    };
  }
}

/** The files git could not take, named in the run's reason (the evidence): the rest was committed. */
export function leftOutText(leftOut: readonly LeftOut[], where: string): string {
  const shown = leftOut.slice(0, 10).map((l) => `${JSON.stringify(l.path)}: ${l.why}`);
  const more = leftOut.length > shown.length ? `; and ${leftOut.length - shown.length} more` : '';
  return `left out of the WIP commit, kept in the worktree ${where}: ${shown.join('; ')}${more}`;
}
