/**
 * proofpr's metrics, the same on the webhook server and on every worker: queue depth by state, runs by
 * verdict, run duration, tokens, cost and failed gates, plus prom-client's default process metrics (CPU,
 * memory, event loop lag, handles). Fed from queue progress events (`attachQueue`), where the worker
 * reports `{ phase: 'done', verdict }` with the run's `tokens`, `costUsd` and `failedGates` from its
 * evidence (metrics/run-progress.ts).
 * Built on prom-client, with a Registry of its own per `createMetrics()` call (never the global one), so
 * several instances in one process (tests, server + worker) do not share or clash.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { JobProgress } from '../jobs/queue.js';
import { registerOutcomeGauges, type OutcomesSource } from './outcomes.js';

export interface Metrics {
  registry: Registry;
  /** Feed one progress event of a run (also what `attachQueue` does). */
  observeProgress(runId: string, p: JobProgress): void;
  /** Follow a queue's progress events; with `counts`, report its depth at each scrape. The result detaches both. */
  attachQueue(queue: {
    onProgress(l: (runId: string, p: JobProgress) => void): () => void;
    counts?: () => Promise<Record<string, number>>;
  }): () => void;
  /** Prometheus text exposition (format 0.0.4); reads the queue depth first. */
  render(): Promise<string>;
  /** The outcomes gauges (`proofpr_pull_requests`, outcomes.ts), read from `source` at most once per `ttlMs`. */
  attachOutcomes(source: OutcomesSource, ttlMs?: number): void;
}

const TOKEN_KINDS = ['input', 'output', 'cache_read', 'cache_write'] as const;
const DURATION_BUCKETS = [5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600];

type DepthSource = () => Promise<Record<string, number>>;

/** The run instruments and the queue-depth gauge on `registry`, plus the default process metrics. */
function registerInstruments(registry: Registry, depthSources: DepthSource[], now: () => number) {
  const registers = [registry];
  new Gauge({
    name: 'proofpr_queue_jobs',
    help: 'Jobs in the queue by state (waiting, active, delayed, failed, completed).',
    labelNames: ['state'],
    registers,
    // Read at scrape time; a queue that cannot answer leaves its last values rather than failing the scrape.
    async collect() {
      const all = await Promise.all(depthSources.map((counts) => counts().catch(() => undefined)));
      for (const counts of all) for (const [state, n] of Object.entries(counts ?? {})) this.set({ state }, n);
    },
  });
  const runs = new Counter({ name: 'proofpr_runs_total', help: 'Finished runs by verdict.', labelNames: ['verdict'], registers });
  const duration = new Histogram({
    name: 'proofpr_run_duration_seconds',
    help: 'Wall time of a run from its first progress event to its verdict.',
    buckets: DURATION_BUCKETS,
    registers,
  });
  const tokens = new Counter({
    name: 'proofpr_tokens_total',
    help: 'Model tokens by kind (input, output, cache_read, cache_write).',
    labelNames: ['kind'],
    registers,
  });
  const cost = new Counter({ name: 'proofpr_cost_usd_total', help: 'Model spend in US dollars.', registers });
  const gateFailures = new Counter({
    name: 'proofpr_gate_failures_total',
    help: 'Gates that failed in finished runs, by gate name.',
    labelNames: ['gate'],
    registers,
  });
  // process_cpu_seconds_total, process_resident_memory_bytes, nodejs_eventloop_lag_seconds, … on this registry.
  collectDefaultMetrics({ register: registry });
  new Gauge({ name: 'proofpr_process_start_time_seconds', help: 'Start time of this process (unix seconds).', registers }).set(
    Math.floor(now() / 1000),
  );
  return { runs, duration, tokens, cost, gateFailures };
}

export function createMetrics(now: () => number = Date.now): Metrics {
  const registry = new Registry();
  const depthSources: DepthSource[] = [];
  const { runs, duration, tokens, cost, gateFailures } = registerInstruments(registry, depthSources, now);

  const started = new Map<string, number>();
  const seen = new Map<string, { tokens: Record<string, number>; cost: number }>();

  const observeProgress = (runId: string, p: JobProgress): void => {
    if (!started.has(runId)) started.set(runId, now());
    const prev = seen.get(runId) ?? { tokens: {}, cost: 0 };
    const t = p.tokens as Record<string, unknown> | undefined;
    if (t && typeof t === 'object') {
      for (const kind of TOKEN_KINDS) {
        const v = t[kind];
        // Progress carries running totals: count only the growth since the last event of this run.
        if (typeof v === 'number' && v > (prev.tokens[kind] ?? 0)) {
          tokens.inc({ kind }, v - (prev.tokens[kind] ?? 0));
          prev.tokens[kind] = v;
        }
      }
    }
    if (typeof p.costUsd === 'number' && p.costUsd > prev.cost) {
      cost.inc(p.costUsd - prev.cost);
      prev.cost = p.costUsd;
    }
    seen.set(runId, prev);
    if (p.phase === 'done' || typeof p.verdict === 'string') {
      if (Array.isArray(p.failedGates)) for (const gate of p.failedGates) if (typeof gate === 'string') gateFailures.inc({ gate });
      runs.inc({ verdict: typeof p.verdict === 'string' ? p.verdict : 'unknown' });
      duration.observe((now() - (started.get(runId) ?? now())) / 1000);
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
      if (counts) depthSources.push(counts);
      return () => {
        off();
        if (counts && depthSources.includes(counts)) depthSources.splice(depthSources.indexOf(counts), 1);
      };
    },
    render: () => registry.metrics(),
    attachOutcomes: (source, ttlMs) => void registerOutcomeGauges(registry, source, ttlMs, now),
  };
}
