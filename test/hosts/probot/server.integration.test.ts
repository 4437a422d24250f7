import type { RunStore } from '../../../src/jobs/run-store.js';
import { describe, it, expect } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { readServerEnv } from '../../../src/hosts/shared/server-env.js';
import { openDatabase } from '../../../src/jobs/db.js';
import { createRunStore } from '../../../src/jobs/run-store.js';
import { createSqliteQueue } from '../../../src/jobs/sqlite-queue.js';
import { fakeGitHub } from '../../fakes/github/nock.js';
import { testPrivateKey, until, useServeHarness } from './harness.js';
import { payload } from '../../github/payloads.js';

const SECRET = 'test-secret';
const sign = (body: string, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('proofpr serve - HTTP server and restarts', () => {
  const serve = useServeHarness('proofpr-serve-');
  const start = () => serve.start({ env: serve.env({ WEBHOOK_SECRET: SECRET }) });

  it('serve - a webhook with a bad signature is rejected and nothing is called', async () => {
    const gh = fakeGitHub({ permissions: { maintainer: { permission: 'admin' } } });
    const s = await start();
    const body = JSON.stringify(payload('issue_comment.created'));
    const post = (signature: string) =>
      fetch(`${s.url}/api/github/webhooks`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'issue_comment',
          'x-github-delivery': 'sig-1',
          'x-hub-signature-256': signature,
        },
        body,
      });
    const bad = await post(sign(body, 'wrong-secret'));
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    expect(gh.calls).toEqual([]);
    expect((s.app.runs as RunStore).latest('acme/widgets', 12)).toBeUndefined();
    const good = await post(sign(body));
    expect(good.status).toBe(200);
    await until(() => (s.app.runs as RunStore).latest('acme/widgets', 12)?.status === 'done');
    expect(gh.calledWith('POST', /\/pulls$/)).toHaveLength(1);
  });

  it('serve - answers /healthz and 404 elsewhere', async () => {
    const s = await start();
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${s.url}/nope`)).status).toBe(404);
  });

  it('serve - a run that was in progress when the process died is reported aborted at start', async () => {
    const gh = fakeGitHub({ comments: [{ id: 777, issue: 12, body: 'queued', user: 'proofpr[bot]' }] });
    const db = openDatabase(serve.home);
    const runs = createRunStore(db);
    const q = createSqliteQueue<unknown>(db);
    runs.tryCreate({ id: 'r-dead', repo: 'acme/widgets', issue: 12, kind: 'fix' });
    const config = { trigger: '/agent' };
    const trigger = { owner: 'acme', repo: 'widgets', number: 12, commenter: 'maintainer', installationId: 42 };
    await q.enqueue({ runId: 'r-dead', data: { mode: 'fix', trigger, config, statusCommentId: 777 } }, { dedupeKey: 'k' });
    db.prepare("UPDATE jobs SET status = 'running'").run();
    db.close();
    const s = await start();
    expect(gh.commentBody(777)).toMatch(/aborted[\s\S]*the server stopped while this run was in progress/);
    expect((s.app.runs as RunStore).get('r-dead')).toMatchObject({ status: 'done', verdict: 'aborted' });
    expect((s.app.runs as RunStore).active('acme/widgets', 12)).toBeUndefined();
  });

  it('serve env - errors name the variable and the fix', () => {
    expect(() => readServerEnv({ WEBHOOK_SECRET: 's', PRIVATE_KEY: testPrivateKey() })).toThrow(/APP_ID is missing/);
    expect(() => readServerEnv({ APP_ID: '1', WEBHOOK_SECRET: 's' })).toThrow(/PRIVATE_KEY or PRIVATE_KEY_PATH is missing/);
    expect(() => readServerEnv({ APP_ID: '1', PRIVATE_KEY: testPrivateKey() })).toThrow(/WEBHOOK_SECRET is missing/);
    const ghe = readServerEnv(
      { APP_ID: '1', PRIVATE_KEY: testPrivateKey(), WEBHOOK_SECRET: 's', GHE_HOST: 'git.example.test:8443', GHE_PROTOCOL: 'http' },
      '/srv',
    );
    expect(ghe).toMatchObject({
      apiUrl: 'http://git.example.test:8443/api/v3',
      webUrl: 'http://git.example.test:8443',
      home: '/srv/.proofpr',
      port: 3000,
      webhookPath: '/api/github/webhooks',
    });
  });
});
