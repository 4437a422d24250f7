/**
 * The job handler every worker runs: bind GitHub to the job's installation and repository, then hand the
 * job to its usecase. A crash anywhere still leaves the run `done` in the store.
 */
import type { GitHubPort, UsecaseDeps } from '../usecases/ports.js';
import type { Trigger } from '../github/trigger.js';
import type { FixJob } from './fix-job.js';
import type { JobHandler } from './queue.js';
import { fixIssue } from '../usecases/fix-issue.js';
import { followUpPr } from '../usecases/follow-up-pr.js';
import { logger } from '../log.js';

const log = logger('worker');

export interface WorkerDeps extends Omit<UsecaseDeps, 'github'> {
  githubFor(trigger: Trigger): Promise<GitHubPort>;
}

export function createJobHandler(deps: WorkerDeps): JobHandler<FixJob> {
  return async (job, ctx) => {
    const { trigger, config, statusCommentId, mode } = job.data;
    const github = await deps.githubFor(trigger);
    const usecaseDeps: UsecaseDeps = { ...deps, github };
    const base = { runId: job.runId, trigger, config, statusCommentId, signal: ctx.signal };
    log.info({ runId: job.runId, repo: `${trigger.owner}/${trigger.repo}`, issue: trigger.number, mode }, 'job start');
    ctx.progress({ phase: 'preparing' });
    const out = mode === 'follow-up' ? await followUpPr(base, usecaseDeps) : await fixIssue({ ...base, mode }, usecaseDeps);
    ctx.progress({ phase: 'done', verdict: out.verdict });
    log.info({ runId: job.runId, verdict: out.verdict }, 'job end');
  };
}
