/**
 * pr.draft_until_ci (issue 28): the verified PR opens as a draft; a check_suite completed with success on
 * its head marks it ready for review through GraphQL. Not after a failing suite, not for a head that moved,
 * not on proofpr's own check-run suite, not while another check on that sha still fails.
 */
import { describe, it, expect } from '@jest/globals';
import type { FakeGitHub } from '../../fakes/github/nock.js';
import { fakeRunTask, fakeWorkspace, useAppHarness } from './harness.js';
import { payload } from '../../github/payloads.js';
import type { FakeGitHubOptions } from '../../fakes/github/state.js';

const REPO = 'acme/widgets';
const HEAD = 'c'.repeat(40);
const CONFIG = 'pr:\n  draft_until_ci: true\nci:\n  wait_min: 0\n';

function suite(conclusion: string, patch: { sha?: string; app?: string; prs?: number[] } = {}) {
  return {
    action: 'completed',
    check_suite: {
      id: 77,
      head_sha: patch.sha ?? HEAD,
      head_branch: 'proofpr/12-parser-drops-the-last-line',
      status: 'completed',
      conclusion,
      app: { slug: patch.app ?? 'github-actions' },
      pull_requests: (patch.prs ?? [100]).map((number) => ({ number })),
    },
    repository: { name: 'widgets', full_name: REPO, owner: { login: 'acme' } },
    sender: { login: 'github-actions[bot]', type: 'Bot' },
    installation: { id: 42 },
  };
}

const readyCalls = (gh: FakeGitHub) =>
  gh.calledWith('POST', /^\/graphql$/).filter((c) => /markPullRequestReadyForReview/.test(String((c.body as { query?: string }).query)));

describe('probot app - draft until CI', () => {
  const app = useAppHarness();

  /** A verified /agent fix: its PR (#100) opened as a draft on HEAD. */
  async function openDraft(ci?: FakeGitHubOptions) {
    const github: FakeGitHubOptions = { permissions: { maintainer: { permission: 'write', role_name: 'write' } }, config: CONFIG, ...ci };
    await app.start({ github, runTask: fakeRunTask({ headSha: HEAD }).runTask, workspace: fakeWorkspace() });
    const ev = payload('issue_comment.created', (p) => (p.comment.body = '/agent fix'));
    await app.receive('issue_comment', ev, 'dr-fix');
    await app.done(12);
    const pr = app.gh.pulls[0];
    if (!pr) throw new Error('no PR was opened');
    pr.headSha = HEAD;
    return pr;
  }

  it('draft - the draft PR is marked ready after a passing check suite', async () => {
    const pr = await openDraft();
    expect(app.gh.calledWith('POST', /\/pulls$/)[0]?.body).toMatchObject({ draft: true });
    expect(pr.draft).toBe(true);
    await app.receive('check_suite', suite('success'), 'dr-1');
    expect(readyCalls(app.gh)).toEqual([expect.objectContaining({ body: expect.objectContaining({ variables: { id: 'PR_node_100' } }) })]);
    expect(pr.draft).toBe(false);
    expect(app.gh.unhandled).toEqual([]);
  });

  it('draft - not after a failing suite, not for a head sha that moved, not on proofpr’s own check-run suite', async () => {
    const pr = await openDraft();
    await app.receive('check_suite', suite('failure'), 'dr-2');
    await app.receive('check_suite', suite('success', { sha: 'd'.repeat(40) }), 'dr-3');
    await app.receive('check_suite', suite('success', { app: 'proofpr' }), 'dr-4');
    pr.headSha = 'e'.repeat(40);
    await app.receive('check_suite', suite('success'), 'dr-5');
    expect(readyCalls(app.gh)).toEqual([]);
    expect(pr.draft).toBe(true);
  });

  it('draft - a passing suite while another check run on the head still fails leaves the draft', async () => {
    const pr = await openDraft({
      ci: () => ({ check_runs: [{ id: 1, name: 'lint', status: 'completed', conclusion: 'failure', app: { slug: 'other-ci' } }] }),
    });
    await app.receive('check_suite', suite('success'), 'dr-6');
    expect(readyCalls(app.gh)).toEqual([]);
    expect(pr.draft).toBe(true);
  });
});
