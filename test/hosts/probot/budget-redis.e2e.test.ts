/**
 * budget.monthly_usd with `serve` on Redis (REDIS_URL): the shared run store keeps each done run's cost in
 * its month, once per run, so every webhook server and worker sees the same spend; a run over the budget is
 * refused with a reply that names it, and `/agent status` shows it. A private redis-server, no mocks.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import nock from 'nock';
import { createProofpr, type Proofpr } from '../../../src/hosts/probot/create-proofpr.js';
import { silentLogger } from '../../../src/log.js';
import type { RedisRunStore } from '../../../src/jobs/redis-run-store.js';
import { monthStart } from '../../../src/usecases/accept-request.js';
import { fakeGitHub } from '../../fakes/github/nock.js';
import { payload } from '../../github/payloads.js';
import { startPrivateRedis, stop } from '../../scale/helpers.js';
import { freePort } from '../../kit/host-net.js';
import { TestOctokit, fakeModel, seedDoneRuns, testPrivateKey } from './harness.js';
import { tempDir } from '../../kit/temp.js';

const REPO = 'acme/widgets';
let redis: ChildProcess;
let url = '';
let home = '';
let app: Proofpr | undefined;

beforeAll(async () => {
  const port = await freePort();
  redis = await startPrivateRedis(port);
  url = `redis://127.0.0.1:${port}`;
  home = tempDir('proofpr-budget-redis-');
  nock.disableNetConnect();
  nock.enableNetConnect(/127\.0\.0\.1/);
});
afterAll(async () => {
  await app?.close();
  await stop(redis);
  nock.cleanAll();
  nock.enableNetConnect();
  nock.restore();
});

/** A new App on the shared Redis with PROOFPR_INSTALLATION_MONTHLY_USD `installationUsd`, and its run store. */
async function startApp(installationUsd: string): Promise<{ started: Proofpr; runs: RedisRunStore }> {
  const started = await createProofpr({
    env: {
      APP_ID: '1',
      PRIVATE_KEY: testPrivateKey(),
      WEBHOOK_SECRET: 's',
      PROOFPR_HOME: home,
      REDIS_URL: url,
      PROOFPR_SWEEP_SCHEDULER: 'off',
      PROOFPR_INSTALLATION_MONTHLY_USD: installationUsd,
    },
    modelFactory: () => fakeModel,
    Octokit: TestOctokit,
    probotLog: silentLogger,
  });
  app = started;
  return { started, runs: started.runs as unknown as RedisRunStore };
}

describe('probot app - monthly budget on Redis', () => {
  it('budget on redis - done runs add their cost once; over budget.monthly_usd the App refuses with the spend; status shows it', async () => {
    const gh = fakeGitHub({
      permissions: { maintainer: { permission: 'write', role_name: 'write' } },
      config: 'budget:\n  monthly_usd: 2\n',
    });
    const { started, runs } = await startApp('100');
    await seedDoneRuns(runs, [['r-1', REPO, 3, 'verified', 1.75]]);
    // A second 'done' of the same run (an error recorded after the end) does not count it twice.
    await runs.update('r-1', { status: 'done', verdict: 'verified' });
    await seedDoneRuns(runs, [
      ['r-2', REPO, 4, 'unverified', 0.75],
      ['r-3', 'acme/other', 4, 'verified', 40],
    ]);
    expect(await runs.spendSince(REPO, monthStart())).toEqual({ costUsd: 2.5, runs: 2, verified: 1 });
    // The installation budget's: the owner-level hash, added to in the same MULTI as each repository's.
    expect(await runs.ownerSpendSince('ACME', monthStart())).toEqual({ costUsd: 42.5, runs: 3, verified: 2 });
    expect(await runs.ownerSpendSince('acme-labs', monthStart())).toEqual({ costUsd: 0, runs: 0, verified: 0 });

    await started.probot.receive({
      id: 'br-1',
      name: 'issue_comment',
      payload: payload('issue_comment.created', (p) => (p.comment.body = '/agent fix')),
    } as never);
    await started.probot.receive({
      id: 'br-2',
      name: 'issue_comment',
      payload: payload('issue_comment.created', (p) => (p.comment.body = '/agent status')),
    } as never);
    const bodies = gh.comments.map((c) => c.body);
    expect(bodies[0]).toContain('spend on this repository is $2.50 over 2 run(s)');
    expect(bodies[0]).toContain('so I did not start');
    expect(bodies[1]).toContain('This month: $2.50 spent of $2.00 over 2 run(s), 1 verified (50%).');
    expect(bodies[1]).toContain("This month across acme's repositories (the installation's budget): $42.50 spent of $100.00 over 3 run(s)");
    expect(await runs.latest(REPO, 12)).toBeUndefined();
  }, 60_000);

  it("installation budget on redis - a second repository of the owner is refused once the first's runs reached PROOFPR_INSTALLATION_MONTHLY_USD", async () => {
    await app?.close();
    nock.cleanAll();
    const gh = fakeGitHub({ owner: 'globex', repo: 'gadgets', permissions: { maintainer: { permission: 'write', role_name: 'write' } } });
    const { started, runs } = await startApp('3');
    await seedDoneRuns(runs, [['g-1', 'globex/widgets', 3, 'verified', 3.5]]);
    await started.probot.receive({
      id: 'bri-1',
      name: 'issue_comment',
      payload: payload('issue_comment.created', (p) => {
        p.comment.body = '/agent fix';
        p.repository.name = 'gadgets';
        p.repository.full_name = 'globex/gadgets';
        p.repository.owner.login = 'globex';
        p.issue.html_url = 'https://github.com/globex/gadgets/issues/12';
      }),
    } as never);
    const bodies = gh.comments.map((c) => c.body);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toContain("spend across globex's repositories (this App installation) is $3.50 over 1 run(s)");
    expect(bodies[0]).toContain('`PROOFPR_INSTALLATION_MONTHLY_USD`');
    expect(await runs.latest('globex/gadgets', 12)).toBeUndefined();
  }, 60_000);
});
