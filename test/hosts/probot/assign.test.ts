/**
 * Assign to the bot (issue 28): `issues.assigned` to the App's bot user starts a fix with the label's
 * authorisation. The bot's login comes from `GET /app` (the slug), asked once, never hard-coded.
 */
import { describe, it, expect } from '@jest/globals';
import { fakeRunTask, fakeWorkspace, useAppHarness } from './harness.js';
import { payload } from '../../github/payloads.js';
import type { FakeGitHubOptions } from '../../fakes/github/state.js';

const REPO = 'acme/widgets';
const assigned = (assignee = 'widgetbot[bot]', sender = 'maintainer') =>
  payload('issues.assigned', (p) => {
    p.assignee = { login: assignee, id: 5, type: 'Bot' };
    p.sender = { login: sender, id: 1001, type: 'User' };
  });

describe('probot app - assign to the bot', () => {
  const app = useAppHarness();

  async function start(config?: string) {
    const github: FakeGitHubOptions = {
      appSlug: 'widgetbot',
      self: 'widgetbot[bot]',
      permissions: { maintainer: { permission: 'write', role_name: 'write' }, visitor: { permission: 'read', role_name: 'read' } },
      ...(config !== undefined ? { config } : {}),
    };
    const fake = fakeRunTask();
    await app.start({ github, runTask: fake.runTask, workspace: fakeWorkspace() });
    return fake;
  }

  it("assign - an assignment to the App's bot user (its slug from GET /app) starts a run, asked once", async () => {
    const fake = await start();
    await app.receive('issues', assigned(), 'as-1');
    await app.done(12);
    expect(fake.inputs).toHaveLength(1);
    expect(fake.inputs[0]).toMatchObject({ mode: 'fix', task: { kind: 'issue', issue: 12 } });
    expect(fake.inputs[0]?.coAuthor).toMatch(/^maintainer </);
    // A second assignment of another issue does not ask GitHub for the slug again.
    await app.receive('issues', assigned('someone-else'), 'as-1b');
    expect(app.gh.calledWith('GET', /^\/app$/)).toHaveLength(1);
    expect(app.gh.unhandled).toEqual([]);
  });

  it('assign - an assigner without write access is refused with a reply saying why; nothing runs', async () => {
    const fake = await start();
    await app.receive('issues', assigned('widgetbot[bot]', 'visitor'), 'as-2');
    expect(app.gh.comments.map((c) => c.body)).toEqual([
      expect.stringContaining('Sorry @visitor, only people with write, maintain, admin access'),
    ]);
    expect(fake.inputs).toHaveLength(0);
    expect(app.runs.latest(REPO, 12)).toBeUndefined();
  });

  it('assign - an assignment to someone else, or to a bot named like the public App, starts nothing and writes nothing', async () => {
    const fake = await start();
    await app.receive('issues', assigned('octocat'), 'as-3');
    await app.receive('issues', assigned('proofpr[bot]'), 'as-4');
    expect(app.gh.calls.filter((c) => c.method !== 'GET' && !c.path.includes('access_tokens'))).toEqual([]);
    expect(fake.inputs).toHaveLength(0);
  });

  it('assign - trigger_on_assign: false turns it off', async () => {
    const fake = await start('trigger_on_assign: false\n');
    await app.receive('issues', assigned(), 'as-5');
    expect(app.gh.comments).toEqual([]);
    expect(fake.inputs).toHaveLength(0);
  });
});
