/**
 * A review that is not a command, on proofpr's own PR, by an authorized maintainer → a learning job on the
 * queue (usecases/accept-review.ts decides; jobs/learn-job.ts learns). Anything else: nothing, no reply.
 */
import type { GitHubPort } from '../../github/port.js';
import { loadRepoConfig } from '../../github/repo-config.js';
import type { LearnJob } from '../../jobs/learn-job.js';
import type { Queue } from '../../jobs/queue.js';
import type { SharedRunStore } from '../../jobs/run-store.js';
import { acceptReview } from '../../usecases/accept-review.js';

export interface LearnIntakeDeps {
  runs: SharedRunStore;
  queue: Pick<Queue<LearnJob>, 'enqueue'>;
  newRunId(): string;
  selfLogin?: string;
}

/** The learning job's id when one was queued. */
export async function learnIntake(
  evt: { name: string; id: string; payload: unknown },
  github: GitHubPort,
  deps: LearnIntakeDeps,
): Promise<string | undefined> {
  const res = await acceptReview(
    { name: evt.name, deliveryId: evt.id, payload: evt.payload },
    {
      github,
      loadConfig: (ref) => loadRepoConfig(github, ref),
      ledger: deps.runs,
      ...(deps.selfLogin ? { selfLogin: deps.selfLogin } : {}),
    },
  );
  if (res.outcome !== 'learn') return undefined;
  const runId = deps.newRunId();
  const { note, modelId, trigger } = res;
  const installation = res.installationId !== undefined ? { installationId: res.installationId } : {};
  const job: LearnJob = { kind: 'learn', owner: note.owner, repo: note.repo, ...installation, note, modelId, trigger };
  await deps.queue.enqueue({ runId, data: job }, { dedupeKey: `learn:${evt.id}` });
  return runId;
}
