/**
 * The learning job: a review proofpr may learn from (usecases/accept-review.ts decided that at intake)
 * → one extraction request → at most one memory entry and one reply. A job of its own, so the webhook
 * never waits on a model and the process that received it needs no model key (with REDIS_URL only the
 * workers have one). Not retried after a crash: a lost lesson costs less than a duplicate reply.
 */
import type { GitHubPort } from '../github/port.js';
import type { Trigger } from '../github/trigger.js';
import { learnFromReview } from '../memory/learn-from-review.js';
import type { ReviewNote } from '../memory/types.js';
import type { ModelFactory } from '../usecases/ports.js';
import type { MemoryStore } from '../memory/types.js';
import type { JobContext, QueuedJob } from './queue.js';
import { logger } from '../log.js';

const log = logger('learn-job');

export interface LearnJob {
  kind: 'learn';
  owner: string;
  repo: string;
  installationId?: number;
  note: ReviewNote;
  modelId: string;
  /** The comment prefix of the repository's config (for the reply). */
  trigger: string;
}

export const isLearnJob = (job: unknown): job is LearnJob => (job as { kind?: unknown } | null)?.kind === 'learn';

export interface LearnJobDeps {
  githubFor(target: Pick<Trigger, 'owner' | 'repo' | 'installationId'>): Promise<GitHubPort>;
  modelFactory: ModelFactory;
  memory?: MemoryStore;
  modelOverride?: string;
}

export async function runLearnJob(job: QueuedJob<LearnJob>, ctx: JobContext, deps: LearnJobDeps): Promise<void> {
  const { owner, repo, note } = job.data;
  if (!deps.memory) {
    log.warn({ runId: job.runId, repo: `${owner}/${repo}` }, 'no memory store: the review is not learned from');
    return;
  }
  const github = await deps.githubFor({
    owner,
    repo,
    ...(job.data.installationId !== undefined ? { installationId: job.data.installationId } : {}),
  });
  const modelId = deps.modelOverride ?? job.data.modelId;
  const out = await learnFromReview(note, {
    github,
    memory: deps.memory,
    model: deps.modelFactory({ modelId }),
    modelId,
    trigger: job.data.trigger,
    signal: ctx.signal,
  });
  ctx.progress({ phase: 'done', verdict: out.kept ? 'learned' : 'skipped' });
  log.info(
    { runId: job.runId, repo: `${owner}/${repo}`, pr: note.pr, kept: out.kept, ...(out.kept ? { entry: out.number } : { why: out.why }) },
    'review learned from',
  );
}
