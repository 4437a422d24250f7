import { wipCommit } from '../workspace/publish.js';
import { commitMessage } from './commit-message.js';
import type { Workspace } from './prepare-workspace.js';
import type { RunOutcome } from './run-outcome.js';
import type { RunTaskInput } from './run-task-types.js';

/**
 * Never lose work: commits unverified work as WIP (config pr.wip_commit); when that is off or fails,
 * the worktree is kept instead and the reason says where the work is.
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
    return 'sha' in c ? { ...outcome, headSha: c.sha, wip: true } : outcome;
  } catch (e) {
    return {
      ...outcome,
      keepWorktree: true,
      reason: `${outcome.reason} (the WIP commit failed: ${(e as Error).message}; the work is kept in ${where})`,
    };
  }
}
