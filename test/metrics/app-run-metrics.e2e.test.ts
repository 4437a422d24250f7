/**
 * /metrics adds up: the App in-process (`startServer`, the embedded SQLite queue, the real worker, runTask and
 * workspace) against a local GitHub stand-in (REST + git over HTTP) and the local Messages server replaying
 * the demo session. After one /agent fix, GET /metrics shows that run's tokens and cost (the same totals as
 * its evidence), its verdict and duration, the queue depth, and the default process metrics. The unit part:
 * a failed gate of a finished run is counted by name.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { testPrivateKey, TestOctokit, until } from '../hosts/probot/harness.js';
import { silentLogger } from '../../src/log.js';
import { startServer, type RunningServer } from '../../src/hosts/probot/server.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { finishedProgress } from '../../src/jobs/run-progress.js';
import type { Evidence } from '../../src/agent/evidence/types.js';
import { demoFixComment, demoRunFinished, startDemoWorld, type DemoWorld } from '../kit/host-demo-app.js';

/** One sample's value from Prometheus text, e.g. value(text, 'proofpr_tokens_total{kind="input"}'). */
function value(text: string, sample: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line === undefined ? undefined : Number(line.slice(sample.length + 1));
}

describe('/metrics after a scripted App run', () => {
  let world: DemoWorld;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    // ci.wait_min: 0: the run ends at the push (no CI watch left running).
    world = await startDemoWorld('proofpr-metrics-', 'ci:\n  wait_min: 0\n');
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      Octokit: TestOctokit,
      progressIntervalMs: 0,
      probotLog: silentLogger,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        APP_ID: '1',
        PRIVATE_KEY: testPrivateKey(),
        WEBHOOK_SECRET: 's',
        GHE_HOST: world.gh.host,
        GHE_PROTOCOL: 'http',
        PROOFPR_HOME: join(world.work, 'home'),
        PROOFPR_SWEEP_SCHEDULER: 'off',
        ANTHROPIC_API_KEY: 'sk-ant-metrics-not-a-real-key',
        ANTHROPIC_BASE_URL: world.model.url,
      },
    });
  }, 90000);

  afterAll(async () => {
    await server?.close();
    await world?.close();
  });

  it('metrics - tokens, cost, verdict, duration, queue depth and process metrics after one App run', async () => {
    const s = server!;
    const before = await (await fetch(`${s.url}/metrics`)).text();
    expect(value(before, 'proofpr_cost_usd_total')).toBe(0);
    await s.app.probot.receive({ id: 'metrics-1', name: 'issue_comment', payload: demoFixComment() } as never);
    await until(() => demoRunFinished(world.gh), 150000);
    // The run's own totals, from its evidence.
    const runs = join(world.work, 'home', 'runs');
    const ev = JSON.parse(readFileSync(join(runs, readdirSync(runs)[0] ?? '', 'evidence.json'), 'utf8')) as Evidence;
    expect(ev.verdict).toBe('verified');
    expect(ev.usage.costUsd).toBeGreaterThan(0);

    let text = '';
    for (let i = 0; i < 50 && value(text, 'proofpr_runs_total{verdict="verified"}') !== 1; i++) {
      text = await (await fetch(`${s.url}/metrics`)).text();
      if (value(text, 'proofpr_runs_total{verdict="verified"}') !== 1) await new Promise((r) => setTimeout(r, 100));
    }
    expect(value(text, 'proofpr_runs_total{verdict="verified"}')).toBe(1);
    expect(value(text, 'proofpr_tokens_total{kind="input"}')).toBe(ev.usage.inputTokens);
    expect(value(text, 'proofpr_tokens_total{kind="output"}')).toBe(ev.usage.outputTokens);
    expect(ev.usage.inputTokens).toBeGreaterThan(0);
    expect(value(text, 'proofpr_cost_usd_total')).toBeCloseTo(ev.usage.costUsd, 9);
    expect(value(text, 'proofpr_run_duration_seconds_count')).toBe(1);
    expect(text).toMatch(/^proofpr_queue_jobs\{state="(waiting|active|completed)"\} \d+$/m);
    // prom-client's default process metrics.
    expect(value(text, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(value(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  }, 180000);

  it('metrics - a finished run with failed gates counts each gate by name, and tokens only once', async () => {
    const m = createMetrics();
    const usage = {
      inputTokens: 1000,
      outputTokens: 200,
      cacheReadTokens: 50,
      cacheWriteTokens: 0,
      costUsd: 0.03,
      turns: 3,
      compactions: 0,
    };
    const gates = [
      { name: 'tests-ran', passed: true, detail: '' },
      { name: 'tests-passed', passed: false, detail: '1 failed' },
      { name: 'tests-kept-base', passed: false, detail: '' },
    ];
    m.observeProgress('r1', { phase: 'preparing' });
    m.observeProgress('r1', finishedProgress('unverified', { usage, gates }));
    const text = await m.render();
    expect(value(text, 'proofpr_runs_total{verdict="unverified"}')).toBe(1);
    expect(value(text, 'proofpr_gate_failures_total{gate="tests-passed"}')).toBe(1);
    expect(value(text, 'proofpr_gate_failures_total{gate="tests-kept-base"}')).toBe(1);
    expect(value(text, 'proofpr_gate_failures_total{gate="tests-ran"}')).toBeUndefined();
    expect(value(text, 'proofpr_tokens_total{kind="input"}')).toBe(1000);
    expect(value(text, 'proofpr_tokens_total{kind="cache_read"}')).toBe(50);
    expect(value(text, 'proofpr_cost_usd_total')).toBe(0.03);
  });
});
