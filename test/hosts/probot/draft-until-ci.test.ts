/**
 * pr.draft_until_ci (issue 28): the verified PR opens as a draft; a check_suite completed with success on
 * its head marks it ready for review through GraphQL. Not after a failing suite, not for a head that moved,
 * not on proofpr's own check-run suite, not while another check on that sha still fails.
 */
import type { RunStore } from '../../../src/jobs/run-store.js';
import { describe, it, expect, beforeEach, afterEach, afterAll } from '@jest/globals';
import nock from 'nock';
import { fakeGitHub, type FakeGitHub } from '../../fakes/github/nock.js';
import { fakeRunTask, fakeWorkspace, startHarness, until, type Harness } from './harness.js';
import { payload } from '../../github/payloads.js';

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
  let gh: FakeGitHub;
  let h: Harness | undefined;
  beforeEach(() => nock.disableNetConnect());
  afterEach(async () => {
    await h?.close();
    h = undefined;
    nock.cleanAll();
    nock.enableNetConnect();
  });

  /** A verified /agent fix: its PR (#100) opened as a draft on HEAD. */
  async function openDraft(ci?: Parameters<typeof fakeGitHub>[0]) {
    gh = fakeGitHub({ permissions: { maintainer: { permission: 'write', role_name: 'write' } }, config: CONFIG, ...ci });
    h = await startHarness(fakeRunTask({ headSha: HEAD }).runTask, fakeWorkspace());
    const ev = payload('issue_comment.created', (p) => (p.comment.body = '/agent fix'));
    await h.app.probot.receive({ id: 'dr-fix', name: 'issue_comment', payload: ev } as never);
    await until(() => (h?.app.runs as RunStore).latest(REPO, 12)?.status === 'done');
    const pr = gh.pulls[0];
    if (!pr) throw new Error('no PR was opened');
    pr.headSha = HEAD;
    return pr;
  }

  it('draft - the draft PR is marked ready after a passing check suite', async () => {
    const pr = await openDraft();
    expect(gh.calledWith('POST', /\/pulls$/)[0]?.body).toMatchObject({ draft: true });
    expect(pr.draft).toBe(true);
    await h?.app.probot.receive({ id: 'dr-1', name: 'check_suite', payload: suite('success') } as never);
    expect(readyCalls(gh)).toEqual([expect.objectContaining({ body: expect.objectContaining({ variables: { id: 'PR_node_100' } }) })]);
    expect(pr.draft).toBe(false);
    expect(gh.unhandled).toEqual([]);
  });

  it('draft - not after a failing suite, not for a head sha that moved, not on proofpr’s own check-run suite', async () => {
    const pr = await openDraft();
    await h?.app.probot.receive({ id: 'dr-2', name: 'check_suite', payload: suite('failure') } as never);
    await h?.app.probot.receive({ id: 'dr-3', name: 'check_suite', payload: suite('success', { sha: 'd'.repeat(40) }) } as never);
    await h?.app.probot.receive({ id: 'dr-4', name: 'check_suite', payload: suite('success', { app: 'proofpr' }) } as never);
    pr.headSha = 'e'.repeat(40);
    await h?.app.probot.receive({ id: 'dr-5', name: 'check_suite', payload: suite('success') } as never);
    expect(readyCalls(gh)).toEqual([]);
    expect(pr.draft).toBe(true);
  });

  it('draft - a passing suite while another check run on the head still fails leaves the draft', async () => {
    const pr = await openDraft({
      ci: () => ({ check_runs: [{ id: 1, name: 'lint', status: 'completed', conclusion: 'failure', app: { slug: 'other-ci' } }] }),
    });
    await h?.app.probot.receive({ id: 'dr-6', name: 'check_suite', payload: suite('success') } as never);
    expect(readyCalls(gh)).toEqual([]);
    expect(pr.draft).toBe(true);
  });
});

afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});
