/**
 * `ci.auto_update: true` (issue 28): a push that moves the base of proofpr's PR is acted on without a
 * comment. When the base now conflicts, the job merges it, the agent resolves the markers (the real run, a
 * scripted model, real git), the result is re-verified and pushed as a fast-forward, and the one comment on
 * the PR says what happened. A base that still merges cleanly costs no run and writes nothing.
 */
import { describe, expect, it } from '@jest/globals';
import { useAppHarness } from './harness.js';
import { sh } from '../../workspace/git-fixtures.js';
import { AUTO, BRANCH, ON_BRANCH, ON_MAIN, pushed, useConflictWorld } from './base-fixtures.js';

describe('probot app - the base moved (ci.auto_update)', () => {
  const app = useAppHarness();
  const world = useConflictWorld(app);

  it('base moved - a push that makes the PR conflict merges the base, resolves it, re-verifies and fast-forwards; the comment says what it did', async () => {
    const oldTip = world.remote().commit(BRANCH, { 'src/stats.js': ON_BRANCH }, 'Fix median sorting');
    const { model, ws } = await world.start(AUTO);
    const baseTip = world.remote().commit('main', { 'src/stats.js': ON_MAIN }, 'Do not reorder the caller’s list');
    await app.receive('push', pushed('main', baseTip));
    await app.done(13, 90_000);

    expect(app.runs.latest('acme/widgets', 13)?.verdict).toBe('verified');
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('<<<<<<<');
    // The merge and its resolution go out as a fast-forward; nobody asked, so no co-author.
    const newTip = world.expectFastForward(ws, oldTip, baseTip);
    expect(sh(world.remote().bare, 'log', '-1', '--format=%B', newTip)).not.toContain('Co-authored-by');
    // One comment on the PR, the status: first what proofpr is doing and why, at the end what it did.
    expect(app.gh.comments.map((c) => c.issue)).toEqual([13]);
    const [first = '', ...edits] = app.gh.comments[0]?.bodies ?? [];
    expect(first).toContain(
      `The base branch \`main\` moved to \`${baseTip.slice(0, 12)}\` and conflicts with this pull request in \`src/stats.js\`. \`ci.auto_update\` is on`,
    );
    const last = edits.at(-1) ?? '';
    expect(last).toContain(`Merged \`main\` (\`${baseTip.slice(0, 12)}\`) into \`${BRANCH}\`, resolved the conflicts in \`src/stats.js\``);
    expect(last).toContain(`pushed \`${newTip.slice(0, 12)}\` as a fast-forward of \`${oldTip.slice(0, 12)}\` (no force push)`);
    expect(last).toContain('**Verdict: verified**');
  }, 120_000);

  it('base moved - a base that still merges cleanly starts no run and writes nothing', async () => {
    world.remote().commit(BRANCH, { 'src/stats.js': ON_BRANCH }, 'Fix median sorting');
    const { model, ws } = await world.start(AUTO);
    const baseTip = world.remote().commit('main', { 'README.md': '# moved\n' }, 'Docs');
    await app.receive('push', pushed('main', baseTip));
    await app.done(13, 60_000);

    expect(app.runs.latest('acme/widgets', 13)?.verdict).toBe('up-to-date');
    expect(model.requests).toHaveLength(0);
    expect(ws.pushes).toHaveLength(0);
    expect(app.gh.calls.filter((c) => c.method !== 'GET' && !c.path.includes('access_tokens'))).toEqual([]);
  }, 90_000);
});
