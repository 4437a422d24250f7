/**
 * Webhook → decision, before anything runs: the one intake (acceptRequest) with the App's run state, then
 * an accepted run is enqueued for a worker. Redeliveries, status, cancel and one-run-per-issue come from
 * the run store; the config from the repository's file on GitHub.
 */
import type { GitHubPort } from '../../github/port.js';
import type { Queue } from '../../jobs/queue.js';
import type { SharedRunStore } from '../../jobs/run-store.js';
import type { FixJob } from '../../jobs/fix-job.js';
import type { Trigger } from '../../github/trigger.js';
import { loadRepoConfig } from '../../github/repo-config.js';
import { acceptRequest, type RefusalOutcome } from '../../usecases/accept-request.js';
import type { LearnJob } from '../../jobs/learn-job.js';
import type { MemoryStore } from '../../memory/types.js';
import { learnIntake } from './learn-intake.js';

export type IntakeOutcome = RefusalOutcome | 'queued' | 'learning';

export interface IntakeDeps {
  runs: SharedRunStore;
  queue: Queue<FixJob | LearnJob>;
  newRunId(): string;
  /** The repositories' feedback memory (`/agent memory`, `/agent forget N`). */
  memory?: MemoryStore;
  /** The App's own login, e.g. "proofpr[bot]". */
  selfLogin?: string;
  /** The App's bot login from GitHub (`GET /app`'s slug + "[bot]", cached), asked only when needed. */
  botLogin?(): Promise<string | undefined>;
  /** PROOFPR_INSTALLATION_MONTHLY_USD: the monthly budget of each installation across its owner's repositories. */
  installationMonthlyUsd?: number;
}

export interface WebhookInput {
  name: string;
  id: string;
  payload: unknown;
}

export async function intake(
  evt: WebhookInput,
  github: GitHubPort,
  deps: IntakeDeps,
): Promise<{ outcome: IntakeOutcome; runId?: string; trigger?: Trigger }> {
  const res = await acceptRequest(
    { kind: 'event', name: evt.name, deliveryId: evt.id, payload: evt.payload },
    {
      github,
      loadConfig: (ref) => loadRepoConfig(github, ref),
      ledger: deps.runs,
      cancel: (runId) => deps.queue.cancel(runId),
      newRunId: deps.newRunId,
      ...(deps.selfLogin ? { selfLogin: deps.selfLogin } : {}),
      ...(deps.botLogin ? { botLogin: deps.botLogin } : {}),
      ...(deps.memory ? { memory: deps.memory } : {}),
      ...(deps.installationMonthlyUsd !== undefined ? { installationMonthlyUsd: deps.installationMonthlyUsd } : {}),
    },
  );
  // A review that is not a command may still teach something: a learning job of its own.
  if (res.outcome === 'ignored' && deps.memory) {
    const learnId = await learnIntake(evt, github, deps);
    if (learnId) return { outcome: 'learning', runId: learnId };
  }
  if (res.outcome !== 'accepted')
    return { outcome: res.outcome, ...(res.runId ? { runId: res.runId } : {}), ...(res.trigger ? { trigger: res.trigger } : {}) };
  const { runId, mode, trigger, config, statusCommentId } = res.run;
  try {
    await deps.queue.enqueue(
      { runId, data: { mode, trigger, config, statusCommentId } },
      { dedupeKey: `${trigger.owner}/${trigger.repo}#${trigger.number}:${runId}` },
    );
  } catch (e) {
    // Nothing was queued: release the lease, and let a redelivery try again.
    await deps.runs.update(runId, { status: 'done', verdict: 'error' });
    await deps.runs.forgetDelivery?.(trigger.deliveryId);
    throw e;
  }
  return { outcome: 'queued', runId, trigger };
}
