/**
 * Assign to the bot (issue 28): `issues.assigned` to the App's bot user starts a fix with the label's
 * authorisation. The bot's login comes from `GET /app` (the slug), asked once, never hard-coded.
 */
import type { RunStore } from '../../../src/jobs/run-store.js';
import { describe, it, expect, beforeEach, afterEach, afterAll } from '@jest/globals';
import nock from 'nock';
import { fakeGitHub, type FakeGitHub } from '../../fakes/github/nock.js';
import { fakeRunTask, fakeWorkspace, startHarness, until, type Harness } from './harness.js';
import { payload } from '../../github/payloads.js';

const REPO = 'acme/widgets';
const assigned = (assignee = 'widgetbot[bot]', sender = 'maintainer') =>
  payload('issues.assigned', (p) => {
    p.assignee = { login: assignee, id: 5, type: 'Bot' };
    p.sender = { login: sender, id: 1001, type: 'User' };
  });

describe('probot app - assign to the bot', () => {
  let gh: FakeGitHub;
  let h: Harness | undefined;
  beforeEach(() => nock.disableNetConnect());
  afterEach(async () => {
    await h?.close();
    h = undefined;
    nock.cleanAll();
    nock.enableNetConnect();
  });

  async function start(config?: string) {
    gh = fakeGitHub({
      appSlug: 'widgetbot',
      self: 'widgetbot[bot]',
      permissions: { maintainer: { permission: 'write', role_name: 'write' }, visitor: { permission: 'read', role_name: 'read' } },
      ...(config !== undefined ? { config } : {}),
    });
    const fake = fakeRunTask();
    h = await startHarness(fake.runTask, fakeWorkspace());
    return fake;
  }

  it("assign - an assignment to the App's bot user (its slug from GET /app) starts a run, asked once", async () => {
    const fake = await start();
    await h?.app.probot.receive({ id: 'as-1', name: 'issues', payload: assigned() } as never);
    await until(() => (h?.app.runs as RunStore).latest(REPO, 12)?.status === 'done');
    expect(fake.inputs).toHaveLength(1);
    expect(fake.inputs[0]).toMatchObject({ mode: 'fix', task: { kind: 'issue', issue: 12 } });
    expect(fake.inputs[0]?.coAuthor).toMatch(/^maintainer </);
    // A second assignment of another issue does not ask GitHub for the slug again.
    await h?.app.probot.receive({
      id: 'as-1b',
      name: 'issues',
      payload: assigned('someone-else'),
    } as never);
    expect(gh.calledWith('GET', /^\/app$/)).toHaveLength(1);
    expect(gh.unhandled).toEqual([]);
  });

  it('assign - an assigner without write access is refused with a reply saying why; nothing runs', async () => {
    const fake = await start();
    await h?.app.probot.receive({ id: 'as-2', name: 'issues', payload: assigned('widgetbot[bot]', 'visitor') } as never);
    expect(gh.comments.map((c) => c.body)).toEqual([
      expect.stringContaining('Sorry @visitor, only people with write, maintain, admin access'),
    ]);
    expect(fake.inputs).toHaveLength(0);
    expect((h?.app.runs as RunStore).latest(REPO, 12)).toBeUndefined();
  });

  it('assign - an assignment to someone else, or to a bot named like the public App, starts nothing and writes nothing', async () => {
    const fake = await start();
    await h?.app.probot.receive({ id: 'as-3', name: 'issues', payload: assigned('octocat') } as never);
    await h?.app.probot.receive({ id: 'as-4', name: 'issues', payload: assigned('proofpr[bot]') } as never);
    expect(gh.calls.filter((c) => c.method !== 'GET' && !c.path.includes('access_tokens'))).toEqual([]);
    expect(fake.inputs).toHaveLength(0);
  });

  it('assign - trigger_on_assign: false turns it off', async () => {
    const fake = await start('trigger_on_assign: false\n');
    await h?.app.probot.receive({ id: 'as-5', name: 'issues', payload: assigned() } as never);
    expect(gh.comments).toEqual([]);
    expect(fake.inputs).toHaveLength(0);
  });
});

afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});
