import { afterEach, describe, expect, it, afterAll } from '@jest/globals';
import nock from 'nock';
import { rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { createProofpr, type Proofpr } from '../../src/hosts/probot/create-proofpr.js';
import { silentLogger } from '../../src/log.js';
import { fakeGitHub } from '../fakes/github/nock.js';
import { fakeModel, fakeRunTask, fakeWorkspace, testPrivateKey, TestOctokit, until } from '../hosts/probot/harness.js';
import { payload } from '../github/payloads.js';
import { REDIS_URL, requireRedis } from './helpers.js';
import { tempDir } from '../kit/temp.js';

// A database of its own so the queue named "runs" never meets another test's keys.
const URL = `${REDIS_URL.replace(/\/\d+$/, '')}/7`;

describe('proofpr serve with REDIS_URL', () => {
  let app: Proofpr | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
    nock.cleanAll();
    nock.enableNetConnect();
    const r = new Redis(URL);
    await r.flushdb();
    r.disconnect();
  });

  it('serve redis - a webhook is answered and enqueued on BullMQ, and this process runs nothing itself', async () => {
    await requireRedis(URL);
    nock.disableNetConnect();
    const gh = fakeGitHub({ permissions: { maintainer: { permission: 'write', role_name: 'write' } } });
    const home = tempDir('proofpr-serve-redis-');
    const fake = fakeRunTask();
    app = await createProofpr({
      env: { APP_ID: '1', PRIVATE_KEY: testPrivateKey(), WEBHOOK_SECRET: 's', PROOFPR_HOME: home, REDIS_URL: URL },
      runTask: fake.runTask,
      workspace: fakeWorkspace(),
      modelFactory: () => fakeModel,
      Octokit: TestOctokit,
      probotLog: silentLogger,
    });
    const p = payload('issue_comment.created', (x) => {
      x.comment.body = '/agent fix';
    });
    await app.probot.receive({ id: 'redis-1', name: 'issue_comment', payload: p } as never);
    const bull = app.queue as unknown as { counts(): Promise<Record<string, number>> };
    let waiting = 0;
    await until(() => {
      void bull.counts().then((c) => (waiting = (c.waiting ?? 0) + (c.delayed ?? 0)));
      return waiting === 1;
    });
    expect(gh.calledWith('POST', /\/issues\/12\/comments$/)).toHaveLength(1);
    expect(await app.runs.active('acme/widgets', 12)).toMatchObject({ status: 'queued' });
    // A redelivery of the same webhook starts nothing: the delivery id lives in Redis.
    await app.probot.receive({ id: 'redis-1', name: 'issue_comment', payload: p } as never);
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.inputs).toHaveLength(0);
    expect((await bull.counts()).waiting).toBe(1);
    rmSync(home, { recursive: true, force: true });
  });
});

// Leave no interceptor behind for the next test file in this worker (it may talk to a local server).
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});
