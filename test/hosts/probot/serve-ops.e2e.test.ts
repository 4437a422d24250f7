/**
 * Operating `proofpr serve`: /metrics, an honest /healthz (Redis down → 503), SIGTERM drains a run in
 * flight, no ANTHROPIC_API_KEY → exit 2 at start, .env loading, WEBHOOK_PROXY_URL forwarding.
 */
import { describe, expect, it } from '@jest/globals';
import { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningServer } from '../../../src/hosts/probot/server.js';
import { loadDotEnv, serveCommand } from '../../../src/hosts/cli/serve.js';
import { startWebhookProxy } from '../../../src/hosts/probot/webhook-proxy.js';
import type { RunStore } from '../../../src/jobs/run-store.js';
import { fakeGitHub } from '../../fakes/github/nock.js';
import { payload } from '../../github/payloads.js';
import { fakeRunTask, until, useServeHarness } from './harness.js';
import { runCli } from '../../kit/host-cli.js';
import { freePort } from '../../kit/host-net.js';

const admin = { maintainer: { permission: 'admin' } };

describe('proofpr serve - operations', () => {
  const serve = useServeHarness('proofpr-serve-ops-');

  /** serveCommand with the fakes and `fake`'s RunTask, once it listens, after one /agent fix (`delivery`) has started its run. */
  async function servingOneRun(fake: ReturnType<typeof fakeRunTask>, graceMs: string, delivery: string) {
    const signals = new EventEmitter();
    let s: RunningServer | undefined;
    const exited = serveCommand({
      ...serve.options(),
      env: serve.env({ PROOFPR_DRAIN_GRACE_MS: graceMs }),
      runTask: fake.runTask,
      signals,
      onListening: (x) => (s = x),
    });
    await until(() => s !== undefined);
    await s!.app.probot.receive({ id: delivery, name: 'issue_comment', payload: payload('issue_comment.created') } as never);
    await fake.started;
    return { server: s!, exited, sigterm: () => signals.emit('SIGTERM') };
  }

  it('serve - /metrics is Prometheus text that counts finished runs by verdict; /healthz is 200 with the SQLite store', async () => {
    fakeGitHub({ permissions: admin });
    const s = await serve.start();
    await s.app.probot.receive({ id: 'm-1', name: 'issue_comment', payload: payload('issue_comment.created') } as never);
    await until(() => (s.app.runs as RunStore).latest('acme/widgets', 12)?.status === 'done');
    const metrics = await fetch(`${s.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    const text = await metrics.text();
    expect(text).toMatch(/^proofpr_runs_total\{verdict="verified"\} 1$/m);
    const health = await fetch(`${s.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true, store: { kind: 'sqlite', ok: true }, queue: { ok: true } });
  });

  it('serve - /healthz is 503 naming Redis when REDIS_URL points at a Redis that is down', async () => {
    const port = await freePort();
    const s = await serve.start({ env: serve.env({ REDIS_URL: `redis://127.0.0.1:${port}` }) });
    const res = await fetch(`${s.url}/healthz`);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { ok: boolean; store: { kind: string; ok: boolean; detail: string } };
    expect(body).toMatchObject({ ok: false, store: { kind: 'redis', ok: false } });
    expect(body.store.detail).toMatch(/^redis: /);
  });

  it('serve - SIGTERM with a run in flight drains it: no new webhooks, the run finishes verified, then exit 0', async () => {
    fakeGitHub({ permissions: admin });
    let release: () => void = () => {};
    const fake = fakeRunTask({ hold: new Promise<void>((r) => (release = r)) });
    const { server: running, exited, sigterm } = await servingOneRun(fake, '60000', 'drain-1');
    sigterm();
    for (
      let i = 0;
      i < 500 &&
      (await fetch(`${running.url}/healthz`).then(
        () => 'up',
        () => 'down',
      )) === 'up';
      i++
    )
      await new Promise((r) => setTimeout(r, 10));
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
    release();
    expect(await exited).toBe(0);
    expect(fake.inputs).toHaveLength(1);
    expect(fake.inputs[0]?.signal?.aborted).toBe(false);
  });

  it('serve - a drain that outlasts PROOFPR_DRAIN_GRACE_MS aborts the run (its WIP is kept)', async () => {
    fakeGitHub({ permissions: admin });
    const fake = fakeRunTask({ hold: new Promise<void>(() => undefined) });
    const { exited, sigterm } = await servingOneRun(fake, '50', 'drain-2');
    sigterm();
    expect(await exited).toBe(0);
    expect(fake.inputs[0]?.signal?.aborted).toBe(true);
  });

  it('serve - no ANTHROPIC_API_KEY stops serve at start with exit 2 naming the variable', async () => {
    const res = await runCli(['serve'], serve.env({ PORT: '0' }), { cwd: serve.home, timeoutMs: 60_000 });
    expect(res.stderr).toContain('ANTHROPIC_API_KEY is missing');
    expect(res.code).toBe(2);
  });

  it('serve - .env fills variables that are not set; set ones win', () => {
    writeFileSync(join(serve.home, '.env'), 'APP_ID=42\nWEBHOOK_SECRET=from-file\n# comment\nPROOFPR_MODEL="claude-x"\n');
    const target: NodeJS.ProcessEnv = { WEBHOOK_SECRET: 'from-env' };
    expect(loadDotEnv(serve.home, target)).toBe(true);
    expect(target).toEqual({ APP_ID: '42', WEBHOOK_SECRET: 'from-env', PROOFPR_MODEL: 'claude-x' });
    expect(process.env.APP_ID).not.toBe('42');
    expect(loadDotEnv(join(serve.home, 'none'), {})).toBe(false);
  });

  it('serve - WEBHOOK_PROXY_URL forwards the smee channel to the webhook path, and stops with the server', async () => {
    const made: Array<{ source: string; target: string }> = [];
    let closed = 0;
    class FakeSmee {
      constructor(readonly o: { source: string; target: string }) {
        made.push({ source: o.source, target: o.target });
      }
      start() {
        return { close: () => void closed++ };
      }
    }
    const s = await serve.start({ env: serve.env({ WEBHOOK_PROXY_URL: 'https://smee.io/chan' }), SmeeClient: FakeSmee });
    expect(made).toEqual([{ source: 'https://smee.io/chan', target: `http://127.0.0.1:${s.port}/api/github/webhooks` }]);
    await serve.stop();
    expect(closed).toBe(1);
  });

  it('serve - a smee channel that cannot be reached is a warning naming the fix; the server still answers', async () => {
    const warned: string[] = [];
    class DeadSmee {
      start(): Promise<never> {
        return Promise.reject(new Error('connect ECONNREFUSED'));
      }
    }
    const log = { info: () => undefined, error: () => undefined, warn: (_o: unknown, msg: string) => void warned.push(msg) };
    expect(
      await startWebhookProxy({
        url: 'https://smee.io/gone',
        port: 1,
        path: '/api/github/webhooks',
        logger: log as never,
        SmeeClient: DeadSmee,
      }),
    ).toBeUndefined();
    expect(warned).toEqual([
      'WEBHOOK_PROXY_URL: cannot connect to the channel, so no webhook arrives through it: check the URL (https://smee.io/…) and the network, then restart',
    ]);
    const s = await serve.start({ env: serve.env({ WEBHOOK_PROXY_URL: 'https://smee.io/gone' }), SmeeClient: DeadSmee });
    expect(s.proxy).toBeUndefined();
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  });
});
