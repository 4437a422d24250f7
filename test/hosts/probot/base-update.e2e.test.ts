/**
 * A PR that sees itself through (issue 28): the base branch moved and conflicts with proofpr's PR; `/agent
 * fix` on the PR merges the base into the branch in the mirror, the conflict markers are the agent's task
 * (the real runTask with a scripted model on real git repositories), the result is re-verified, and the push
 * goes through the one publish step as a fast-forward of the PR's old tip: no force of any kind.
 */
import { describe, expect, it } from '@jest/globals';
import { payload } from '../../github/payloads.js';
import { useAppHarness } from './harness.js';
import { BRANCH, CONFIG, ON_BRANCH, ON_MAIN, useConflictWorld } from './base-fixtures.js';

describe('probot app - a PR that sees itself through', () => {
  const app = useAppHarness();
  const world = useConflictWorld(app);

  it('base update - a conflicting base is merged and re-verified with a fast-forward push', async () => {
    const oldTip = world.remote().commit(BRANCH, { 'src/stats.js': ON_BRANCH }, 'Fix median sorting');
    const baseTip = world.remote().commit('main', { 'src/stats.js': ON_MAIN }, 'Do not reorder the caller’s list');
    const { model, ws } = await world.start(CONFIG);
    await app.receive(
      'pull_request_review_comment',
      payload('pull_request_review_comment.created', (p) => (p.comment.body = '/agent fix')),
    );
    await app.done(13, 90_000);

    // The task named the conflict; the agent saw the markers in the file.
    const task = (model.requests[0]?.system ?? []).map((b) => b.text).join('\n');
    expect(task).toContain('conflicts with this pull request');
    expect(task).toContain('- src/stats.js');
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('<<<<<<<');
    expect(app.runs.latest('acme/widgets', 13)?.verdict).toBe('verified');
    // One push: a plain one (no lease, no force), of a commit that descends from the old tip and the base.
    const newTip = world.expectFastForward(ws, oldTip, baseTip);
    expect(app.gh.checkRuns).toEqual([expect.objectContaining({ head_sha: newTip, conclusion: 'success' })]);
  }, 120_000);
});
