/** /metrics in Prometheus text format and /healthz, fed from queue progress events. */
import { describe, it, expect, afterEach } from '@jest/globals';
import type { Server } from 'node:http';
import { createMetrics } from '../../src/metrics/metrics.js';
import { serveMetrics } from '../../src/metrics/handler.js';
import type { JobProgress } from '../../src/jobs/queue.js';

/** Each sample of Prometheus text (name with labels → value); comment lines left out. */
const samples = (text: string): Record<string, number> =>
  Object.fromEntries(
    text
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('#'))
      .map((l) => [l.slice(0, l.lastIndexOf(' ')), Number(l.slice(l.lastIndexOf(' ') + 1))]),
  );

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

describe('metrics - Prometheus text and health', () => {
  it('metrics - counts runs by verdict, run duration, tokens and cost from progress events', async () => {
    let t = 1_000_000;
    const m = createMetrics(() => t);
    m.observeProgress('r1', { phase: 'working', tokens: { input: 100, output: 10 }, costUsd: 0.5 });
    t += 42_000;
    m.observeProgress('r1', { phase: 'working', tokens: { input: 250, output: 30 }, costUsd: 1.25 });
    m.observeProgress('r1', { phase: 'done', verdict: 'verified' });
    m.observeProgress('r2', { phase: 'done', verdict: 'unverified' });
    const text = await m.render();
    expect(text).toContain('# TYPE proofpr_runs_total counter');
    expect(samples(text)).toMatchObject({
      'proofpr_runs_total{verdict="verified"}': 1,
      'proofpr_runs_total{verdict="unverified"}': 1,
      'proofpr_tokens_total{kind="input"}': 250,
      'proofpr_tokens_total{kind="output"}': 30,
      proofpr_cost_usd_total: 1.25,
      'proofpr_run_duration_seconds_bucket{le="60"}': 2,
      'proofpr_run_duration_seconds_bucket{le="30"}': 1,
      proofpr_run_duration_seconds_sum: 42,
      proofpr_run_duration_seconds_count: 2,
    });
  });

  it('metrics - queue depth is read from the queue at scrape time; /healthz answers 200 or 503', async () => {
    const m = createMetrics();
    const listeners: ((runId: string, p: JobProgress) => void)[] = [];
    m.attachQueue({ onProgress: (l) => (listeners.push(l), () => undefined), counts: async () => ({ waiting: 3, active: 1 }) });
    listeners[0]!('r9', { phase: 'done', verdict: 'aborted' });
    let healthy = true;
    const s = await serveMetrics(m, 0, async () => healthy, '127.0.0.1');
    server = s.server;
    const res = await fetch(`http://127.0.0.1:${s.port}/metrics`);
    expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const body = await res.text();
    expect(body).toContain('proofpr_queue_jobs{state="waiting"} 3');
    expect(body).toContain('proofpr_queue_jobs{state="active"} 1');
    expect(body).toContain('proofpr_runs_total{verdict="aborted"} 1');
    expect((await fetch(`http://127.0.0.1:${s.port}/healthz`)).status).toBe(200);
    healthy = false;
    expect((await fetch(`http://127.0.0.1:${s.port}/healthz`)).status).toBe(503);
    expect((await fetch(`http://127.0.0.1:${s.port}/other`)).status).toBe(404);
  });

  it('metrics - each createMetrics() has its own registry, so two instances neither share values nor clash on names', async () => {
    const a = createMetrics();
    const b = createMetrics();
    expect(a.registry).not.toBe(b.registry);
    a.observeProgress('r1', { phase: 'done', verdict: 'verified' });
    expect(await a.render()).toContain('proofpr_runs_total{verdict="verified"} 1');
    expect(await b.render()).not.toContain('proofpr_runs_total{verdict="verified"}');
  });

  it('metrics - a queue that cannot answer keeps its last depth and does not fail the scrape; detaching stops reading it', async () => {
    const m = createMetrics(() => 1_700_000_000_000);
    let calls = 0;
    let down = false;
    const detach = m.attachQueue({
      onProgress: () => () => undefined,
      counts: async () => {
        calls += 1;
        if (down) throw new Error('redis down');
        return { waiting: 5 };
      },
    });
    expect(await m.render()).toContain('proofpr_queue_jobs{state="waiting"} 5');
    down = true;
    const text = await m.render();
    expect(text).toContain('proofpr_queue_jobs{state="waiting"} 5');
    expect(text).toContain('proofpr_process_start_time_seconds 1700000000');
    detach();
    await m.render();
    expect(calls).toBe(2);
  });
});
