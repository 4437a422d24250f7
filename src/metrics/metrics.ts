/**
 * proofpr's metrics, the same on the webhook server and on every worker: queue depth by state, runs by
 * verdict, run duration, tokens and cost. Fed from queue progress events (`attachQueue`), where the worker
 * reports `{ phase: 'done', verdict }` and, when it has them, `tokens` and `costUsd` totals for the run.
 */
import { Counter, Gauge, Histogram, Registry } from './registry.js';
import type { JobProgress } from '../jobs/queue.js';

export interface Metrics {
  registry: Registry;
  /** Feed one progress event of a run (also what `attachQueue` does). */
  observeProgress(runId: string, p: JobProgress): void;
  /** Follow a queue's progress events; with `counts`, report its depth at each scrape. */
  attachQueue(queue: {
    onProgress(l: (runId: string, p: JobProgress) => void): () => void;
    counts?: () => Promise<Record<string, number>>;
  }): () => void;
  render(): Promise<string>;
}

const TOKEN_KINDS = ['input', 'output', 'cache_read', 'cache_write'] as const;

export function createMetrics(now: () => number = Date.now): Metrics {
  const registry = new Registry();
  const depth = registry.register(new Gauge('proofpr_queue_jobs', 'Jobs in the queue by state (waiting, active, delayed, failed, completed).'));
  const runs = registry.register(new Counter('proofpr_runs_total', 'Finished runs by verdict.'));
  const duration = registry.register(new Histogram('proofpr_run_duration_seconds', 'Wall time of a run from its first progress event to its verdict.', [5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600]));
  const tokens = registry.register(new Counter('proofpr_tokens_total', 'Model tokens by kind (input, output, cache_read, cache_write).'));
  const cost = registry.register(new Counter('proofpr_cost_usd_total', 'Model spend in US dollars.'));
  const up = registry.register(new Gauge('proofpr_process_start_time_seconds', 'Start time of this process (unix seconds).'));
  up.set({}, Math.floor(now() / 1000));
  const started = new Map<string, number>();
  const seen = new Map<string, { tokens: Record<string, number>; cost: number }>();

  const observeProgress = (runId: string, p: JobProgress): void => {
    if (!started.has(runId)) started.set(runId, now());
    const prev = seen.get(runId) ?? { tokens: {}, cost: 0 };
    const t = p.tokens as Record<string, unknown> | undefined;
    if (t && typeof t === 'object') {
      for (const kind of TOKEN_KINDS) {
        const v = t[kind];
        if (typeof v === 'number' && v > (prev.tokens[kind] ?? 0)) {
          tokens.inc({ kind }, v - (prev.tokens[kind] ?? 0));
          prev.tokens[kind] = v;
        }
      }
    }
    if (typeof p.costUsd === 'number' && p.costUsd > prev.cost) {
      cost.inc({}, p.costUsd - prev.cost);
      prev.cost = p.costUsd;
    }
    seen.set(runId, prev);
    if (p.phase === 'done' || typeof p.verdict === 'string') {
      const verdict = typeof p.verdict === 'string' ? p.verdict : 'unknown';
      runs.inc({ verdict });
      duration.observe({}, (now() - (started.get(runId) ?? now())) / 1000);
      started.delete(runId);
      seen.delete(runId);
    }
  };

  return {
    registry,
    observeProgress,
    attachQueue(queue) {
      const off = queue.onProgress(observeProgress);
      const counts = queue.counts;
      if (counts) {
        registry.collect(async () => {
          for (const [state, n] of Object.entries(await counts())) depth.set({ state }, n);
        });
      }
      return off;
    },
    render: () => registry.render(),
  };
}
