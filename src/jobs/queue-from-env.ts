/**
 * Pick the queue from the environment (CONTRACT §2): REDIS_URL set → BullMQ on that Redis (many workers);
 * unset → the embedded SQLite queue in $PROOFPR_HOME (one process).
 * Jobs shaped like a FixJob (`data.trigger.owner/repo/number`) get their repository and issue keys for the
 * per-repository limit and the per-issue lease without further wiring.
 */
import type { Queue } from './queue.js';
import { createBullmqQueue, type BullmqQueueOptions } from './bullmq-queue.js';
import { createSqliteQueue } from './sqlite-queue.js';
import { openDatabase } from './db.js';

export interface QueueFromEnvOptions<T> {
  env: NodeJS.ProcessEnv;
  /** $PROOFPR_HOME (where the SQLite database lives when REDIS_URL is unset). */
  home: string;
  /** Queue name, e.g. "runs". */
  name: string;
  /** Extra BullMQ settings (limits, timings); ignored for SQLite. */
  bullmq?: Partial<Omit<BullmqQueueOptions<T>, 'redisUrl' | 'name'>>;
}

interface TriggerLike {
  trigger?: { owner?: unknown; repo?: unknown; number?: unknown };
}

export function repoOfJob(data: unknown): string | undefined {
  const sweep = data as { kind?: unknown; owner?: unknown; repo?: unknown } | null;
  if (sweep?.kind === 'sweep' && typeof sweep.owner === 'string' && typeof sweep.repo === 'string') return `${sweep.owner}/${sweep.repo}`;
  const t = (data as TriggerLike | null)?.trigger;
  return t && typeof t.owner === 'string' && typeof t.repo === 'string' ? `${t.owner}/${t.repo}` : undefined;
}

export function issueOfJob(data: unknown): string | undefined {
  const t = (data as TriggerLike | null)?.trigger;
  const repo = repoOfJob(data);
  return repo && typeof t?.number === 'number' ? `${repo}#${t.number}` : undefined;
}

export async function createQueueFromEnv<T>(opts: QueueFromEnvOptions<T>): Promise<Queue<T>> {
  const url = opts.env.REDIS_URL?.trim();
  if (url) {
    return createBullmqQueue<T>({ repoOf: repoOfJob, issueOf: issueOfJob, ...opts.bullmq, redisUrl: url, name: opts.name });
  }
  return createSqliteQueue<T>(openDatabase(opts.home));
}
