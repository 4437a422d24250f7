/**
 * The job handler every worker runs: bind GitHub to the job's installation and repository, then hand the
 * job to its usecase. A crash anywhere still leaves the run `done` in the store. Sweep jobs (fired by
 * `serve`'s scheduler) read the config again, refresh the mirror and run that one sweep on the default branch.
 */
import type { UsecaseDeps } from '../usecases/ports.js';
import type { GitHubPort } from '../github/port.js';
import type { Trigger } from '../github/trigger.js';
import { isSweepJob, type FixJob, type ProofprJob, type SweepJob } from './fix-job.js';
import type { JobContext, JobHandler, QueuedJob } from './queue.js';
import { fixIssue } from '../usecases/fix-issue.js';
import { followUpPr } from '../usecases/follow-up-pr.js';
import { runSweeps } from '../usecases/sweep.js';
import type { BaselineRunner } from '../usecases/sweep-baseline.js';
import { loadRepoConfig } from '../github/repo-config.js';
import { logger } from '../log.js';
import { isLearnJob, runLearnJob } from './learn-job.js';
import { isCiWatchJob, type CiWatcher } from './ci-watch-job.js';
import { finishedProgress, readEvidence } from './run-progress.js';

const log = logger('worker');

export interface WorkerDeps extends Omit<UsecaseDeps, 'github'> {
  githubFor(target: Pick<Trigger, 'owner' | 'repo' | 'installationId'>): Promise<GitHubPort>;
  /** Replaces the sweeps' baseline run (setup + tests on the base), e.g. in tests. */
  baseline?: BaselineRunner;
  /** Takes over the CI watch of each verified push (off the worker slot). */
  ciWatcher?: CiWatcher;
}

async function runFixJob(job: QueuedJob<FixJob>, ctx: JobContext, deps: WorkerDeps): Promise<void> {
  const { trigger, config, statusCommentId, mode, ciFix } = job.data;
  const github = await deps.githubFor(trigger);
  const usecaseDeps: UsecaseDeps = { ...deps, github };
  const base = { runId: job.runId, trigger, config, statusCommentId, signal: ctx.signal };
  log.debug({ runId: job.runId, repo: `${trigger.owner}/${trigger.repo}`, issue: trigger.number, mode }, 'job start');
  const startedAt = Date.now();
  ctx.progress({ phase: 'preparing' });
  const out =
    mode === 'follow-up'
      ? await followUpPr({ ...base, ...(ciFix ? { ciFix } : {}) }, usecaseDeps)
      : await fixIssue({ ...base, mode }, usecaseDeps);
  // Tokens, cost and failed gates of the run ride on its last progress event (the metrics count them).
  ctx.progress(finishedProgress(out.verdict, out.run?.evidence));
  if (out.published) deps.ciWatcher?.start({ target: trigger, trigger, config, published: out.published, round: job.data.ciRound ?? 0 });
  // One info line per run (serve and worker log at info by default).
  log.info(
    {
      runId: job.runId,
      repo: `${trigger.owner}/${trigger.repo}`,
      issue: trigger.number,
      mode,
      verdict: out.verdict,
      seconds: Math.round((Date.now() - startedAt) / 1000),
    },
    'run finished',
  );
}

async function runSweepJob(job: QueuedJob<SweepJob>, ctx: JobContext, deps: WorkerDeps): Promise<void> {
  const { owner, repo, installationId, sweep } = job.data;
  const repoFullName = `${owner}/${repo}`;
  log.debug({ runId: job.runId, repo: repoFullName, sweep }, 'sweep job start');
  ctx.progress({ phase: 'preparing' });
  const github = await deps.githubFor({ owner, repo, installationId });
  const defaultBranch = await github.getDefaultBranch();
  const loaded = await loadRepoConfig(github, defaultBranch);
  if (!loaded.ok) {
    log.warn({ runId: job.runId, repo: repoFullName, sweep, problems: loaded.problems }, 'sweep not run: .github/proofpr.yml is invalid');
    ctx.progress({ phase: 'done', verdict: 'error' });
    return;
  }
  if (!loaded.config.sweeps.some((s) => s.name === sweep)) {
    log.warn({ runId: job.runId, repo: repoFullName, sweep }, 'sweep not run: it is no longer in .github/proofpr.yml');
    ctx.progress({ phase: 'done', verdict: 'skipped' });
    return;
  }
  const access = await github.gitAccess();
  const mirror = await deps.workspace.ensureMirror({ home: deps.home, url: access.url, token: access.token });
  const modelId = deps.modelOverride ?? loaded.config.model;
  const outcomes = await runSweeps(
    {
      repoDir: mirror.dir,
      baseRef: defaultBranch,
      prBase: defaultBranch,
      config: loaded.config,
      names: [sweep],
      modelId,
      home: deps.home,
      repoFullName,
      signal: ctx.signal,
    },
    {
      runTask: deps.runTask,
      model: deps.modelFactory({ modelId }),
      github,
      workspace: deps.workspace,
      ...(deps.branches ? { branches: deps.branches } : {}),
      ...(deps.baseline ? { baseline: deps.baseline } : {}),
      ...(deps.memory ? { memory: deps.memory } : {}),
    },
  );
  const out = outcomes[0];
  ctx.progress(finishedProgress(out?.verdict ?? 'skipped', await readEvidence(out?.verdict === 'skipped' ? undefined : out?.evidencePath)));
  log.info(
    { runId: job.runId, sweep, sweepRunId: out?.runId, verdict: out?.verdict, pr: out?.pr?.url, reason: out?.reason },
    'sweep job end',
  );
}

export function createJobHandler(deps: WorkerDeps): JobHandler<ProofprJob> {
  return async (job, ctx) => {
    const data = job.data;
    if (isSweepJob(data)) await runSweepJob({ ...job, data }, ctx, deps);
    else if (isLearnJob(data)) await runLearnJob({ ...job, data }, ctx, deps);
    else if (isCiWatchJob(data)) await deps.ciWatcher?.handle({ ...job, data });
    else await runFixJob({ ...job, data }, ctx, deps);
  };
}
