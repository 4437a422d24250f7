/**
 * The job queue seam. Two implementations: the embedded SQLite queue (one process) and BullMQ on Redis
 * (many workers, chosen by REDIS_URL). Hosts enqueue; workers consume; `/agent cancel` reaches the job.
 */

export interface QueuedJob<T> {
  /** Queue-assigned job id. */
  id: string;
  runId: string;
  data: T;
  /** 1 on the first attempt. */
  attempt: number;
}

/** Free-form progress (phase, turns, cost) for listeners such as metrics or a server relaying to the status comment. */
export type JobProgress = Record<string, unknown>;

export interface JobContext {
  /** Fires on `cancel(runId)` or when the queue closes with abort. */
  signal: AbortSignal;
  progress(p: JobProgress): void;
}

export type JobHandler<T> = (job: QueuedJob<T>, ctx: JobContext) => Promise<void>;

export type CancelResult = 'dequeued' | 'aborted' | 'not_found';

export interface Queue<T> {
  /** Add a job; a dedupeKey seen before returns the existing job with deduped: true. */
  enqueue(job: { runId: string; data: T }, opts: { dedupeKey: string }): Promise<{ id: string; deduped: boolean }>;
  /** Start taking jobs, at most `concurrency` at once. */
  consume(handler: JobHandler<T>, opts: { concurrency: number }): void;
  /** A queued job is removed; a running one has its AbortSignal fired. */
  cancel(runId: string): Promise<CancelResult>;
  onProgress(listener: (runId: string, progress: JobProgress) => void): () => void;
  /** Stop taking jobs and wait for the running ones (aborting them first when `abort`). */
  close(opts?: { abort?: boolean }): Promise<void>;
}
