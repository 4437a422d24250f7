/**
 * A run that was in progress when the process died: its status comment says so, the run is closed as
 * aborted, and whatever it left (worktree, WIP) stays on disk for a re-run to pick up.
 */
import type { RunRecorder } from '../usecases/ports.js';
import type { GitHubPort } from '../github/port.js';
import type { Trigger } from '../github/trigger.js';
import type { FixJob } from './fix-job.js';
import type { QueuedJob } from './queue.js';
import { renderStatusComment } from '../github/status-comment.js';

export async function reportInterrupted(
  job: QueuedJob<FixJob>,
  deps: { githubFor(trigger: Trigger): Promise<GitHubPort>; runs: RunRecorder },
): Promise<void> {
  const t = job.data.trigger;
  await deps.runs.update(job.runId, { status: 'done', verdict: 'aborted' });
  const github = await deps.githubFor(t);
  const body = renderStatusComment({
    runId: job.runId,
    phase: 'aborted',
    requester: t.commenter,
    mode: job.data.mode,
    verdict: 'aborted',
    reason: `the server stopped while this run was in progress; its work in progress was kept. Comment \`${job.data.config.trigger} fix\` to start again`,
  });
  await github.updateComment(job.data.statusCommentId, body);
}
