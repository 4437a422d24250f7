/**
 * `ci.auto_update` at the webhook (issue 28): which pushes queue a base update, for which PRs, and what the
 * job says when it cannot work (the real git side is base-moved.test.ts). A fake run and workspace here:
 * the workspace's merge answers as git would.
 */
import { describe, expect, it } from '@jest/globals';
import { fakeRunTask, fakeWorkspace, useAppHarness } from './harness.js';
import { pushed } from './base-fixtures.js';
import type { RunStore } from '../../../src/jobs/run-store.js';
import type { WorkspacePort } from '../../../src/usecases/ports.js';

const REPO = 'acme/widgets';
const BRANCH = 'proofpr/12-parser-drops-the-last-line';
const AUTO = 'ci:\n  wait_min: 0\n  auto_update: true\n';
const BASE = 'b'.repeat(40);
const own = { number: 13, head: BRANCH, headSha: '1'.repeat(40), base: 'main', state: 'open' as const, author: 'proofpr[bot]' };
const writes = (calls: Array<{ method: string; path: string }>) =>
  calls.filter((c) => c.method !== 'GET' && !c.path.includes('access_tokens')).map((c) => `${c.method} ${c.path}`);

/** A workspace whose merge says the base conflicts in src/stats.js. */
function conflicting(): WorkspacePort & { pushes: unknown[] } {
  return {
    ...fakeWorkspace(),
    mergeIntoBranch: async () => ({ kind: 'merged', baseSha: BASE, sha: 'm'.repeat(40), conflicts: ['src/stats.js'] }),
  };
}

describe('probot app - a push that moves the base of proofpr PRs', () => {
  const app = useAppHarness();

  async function start(config: string, pulls: Array<typeof own | (Omit<typeof own, 'author'> & { author: string })> = [own]) {
    const fake = fakeRunTask();
    const ws = conflicting();
    await app.start({ github: { config, pulls, refs: { [BRANCH]: '1'.repeat(40) } }, runTask: fake.runTask, workspace: ws });
    return { fake, ws };
  }

  it('base push - with ci.auto_update off nothing is queued: one PR list and the config read, nothing written', async () => {
    const { fake } = await start('ci:\n  wait_min: 0\n');
    await app.receive('push', pushed('main', BASE));
    expect(app.runs.latest(REPO, 13)).toBeUndefined();
    expect(fake.inputs).toHaveLength(0);
    expect(writes(app.gh.calls)).toEqual([]);
    expect(app.gh.log.filter((l) => !l.includes('access_tokens'))).toEqual([
      'GET /repos/acme/widgets/pulls?state=open&per_page=100&base=main',
      'GET /repos/acme/widgets/contents/.github/proofpr.yml?ref=main',
    ]);
  });

  it('base push - a proofpr/ PR opened by someone else is left alone, without a word; a push onto a proofpr/ branch asks nothing', async () => {
    const { fake } = await start(AUTO, [{ ...own, author: 'mallory' }]);
    await app.receive('push', pushed('main', BASE));
    await app.receive('push', pushed(BRANCH, '2'.repeat(40)));
    expect(app.runs.latest(REPO, 13)).toBeUndefined();
    expect(fake.inputs).toHaveLength(0);
    expect(writes(app.gh.calls)).toEqual([]);
    expect(app.gh.calledWith('GET', /\/pulls\?/)).toHaveLength(1);
  });

  it('base push - a tag push or a deleted branch asks GitHub nothing', async () => {
    const { fake } = await start(AUTO);
    await app.receive('push', { ...pushed('main', BASE), ref: 'refs/tags/v1.0.0' });
    await app.receive('push', { ...pushed('main', '0'.repeat(40)), deleted: true });
    expect(app.gh.calls.filter((c) => !c.path.includes('access_tokens'))).toEqual([]);
    expect(fake.inputs).toHaveLength(0);
  });

  it('base push - a redelivered push queues nothing again; a PR with a run in progress is skipped', async () => {
    await start(AUTO);
    (app.runs as RunStore).tryCreate({ id: 'r-busy', repo: REPO, issue: 13, kind: 'follow-up' });
    await app.receive('push', pushed('main', BASE), 'push-1');
    await app.receive('push', pushed('main', BASE), 'push-1');
    expect(app.runs.latest(REPO, 13)?.id).toBe('r-busy');
    expect(writes(app.gh.calls)).toEqual([]);
  });

  it('base push - the base conflicts but the month is over budget.monthly_usd: a comment names the spend, nothing runs', async () => {
    const { fake, ws } = await start(`${AUTO}budget:\n  monthly_usd: 1\n`);
    (app.runs as RunStore).tryCreate({ id: 'r-old', repo: REPO, issue: 3, kind: 'fix' });
    (app.runs as RunStore).update('r-old', { status: 'done', verdict: 'verified', costUsd: 1.5 });
    await app.receive('push', pushed('main', BASE));
    await app.done(13);
    expect(app.runs.latest(REPO, 13)?.verdict).toBe('refused');
    expect(app.gh.comments.map((c) => c.body)).toEqual([
      expect.stringContaining(
        "conflicts with this pull request in `src/stats.js`. `ci.auto_update` is on, but this month's proofpr spend on this repository is $1.50",
      ),
    ]);
    expect(app.gh.comments[0]?.body).toContain('reached the monthly budget of $1.00 (`budget.monthly_usd`), so I did not start');
    expect(fake.inputs).toHaveLength(0);
    expect(ws.pushes).toHaveLength(0);
  });

  it('base push - a conflicting base runs the follow-up with the conflict as its task, no review threads, no co-author', async () => {
    const { fake, ws } = await start(AUTO);
    await app.receive('push', pushed('main', BASE));
    await app.done(13);
    expect(fake.inputs).toHaveLength(1);
    const input = fake.inputs[0];
    expect(input).toMatchObject({ branch: BRANCH, continueBranch: true, baseRef: 'main' });
    expect(input?.task.body).toContain('conflicts with this pull request');
    expect(input?.task.body).not.toContain('Unresolved review threads');
    expect(input?.coAuthor).toBeUndefined();
    expect(ws.pushes).toEqual([expect.objectContaining({ branch: BRANCH, ownBranch: false })]);
    expect(app.gh.calledWith('GET', /graphql|\/pulls\/13\/comments/)).toEqual([]);
  });

  it('base push - a job that fails before it knows whether the base conflicts still leaves a comment saying so', async () => {
    await app.start({
      github: { config: AUTO, pulls: [own], refs: { [BRANCH]: '1'.repeat(40) } },
      workspace: {
        ...fakeWorkspace(),
        ensureMirror: async () => {
          throw new Error('the mirror could not be fetched');
        },
      },
    });
    await app.receive('push', pushed('main', BASE));
    await app.done(13);
    expect(app.runs.latest(REPO, 13)?.verdict).toBe('error');
    const body = app.gh.comments[0]?.body ?? '';
    expect(app.gh.comments).toHaveLength(1);
    expect(body).toContain('The base branch `main` moved, and proofpr could not update this pull request with it');
    expect(body).toContain('Failed while preparing: the mirror could not be fetched.');
  });
});
