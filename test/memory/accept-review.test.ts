/** acceptReview: which reviews are worth learning from, before any model request. */
import { afterEach, beforeAll, describe, expect, it, afterAll } from '@jest/globals';
import nock from 'nock';
import { createGitHubPort } from '../../src/github/github-port.js';
import { createTokenOctokit } from '../../src/github/token-octokit.js';
import { loadRepoConfig } from '../../src/github/repo-config.js';
import { acceptReview } from '../../src/usecases/accept-review.js';
import { fakeGitHub } from '../fakes/github/nock.js';
import { payload } from '../github/payloads.js';

const BRANCH = 'proofpr/12-parser-drops-the-last-line';
const port = () => createGitHubPort(createTokenOctokit({ token: 't' }), { owner: 'acme', repo: 'widgets' });
function ledger(owned: string[] = [BRANCH]) {
  const seen = new Set<string>();
  return {
    recordBranch: () => undefined,
    ownsBranch: (_r: string, b: string) => owned.includes(b),
    recordDelivery: (id: string) => (seen.has(id) ? false : (seen.add(id), true)),
  };
}
const reviewComment = (body: string, id = 'd-1') => ({
  name: 'pull_request_review_comment',
  deliveryId: id,
  payload: payload('pull_request_review_comment.created', (p) => (p.comment.body = body)),
});

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('acceptReview', () => {
  it('accept review - a maintainer review comment on proofpr’s own PR is learned from, linked to its thread, once', async () => {
    fakeGitHub({ permissions: { maintainer: 'write' } });
    const github = port();
    const deps = { github, loadConfig: (ref?: string) => loadRepoConfig(github, ref), ledger: ledger() };
    const res = await acceptReview(reviewComment('Use the existing splitLines helper from src/text.ts here.'), deps);
    expect(res).toMatchObject({
      outcome: 'learn',
      trigger: '/agent',
      installationId: 42,
      note: {
        kind: 'review-comment',
        pr: 13,
        author: 'maintainer',
        at: '2026-11-29T11:00:00Z',
        url: 'https://github.com/acme/widgets/pull/13#discussion_r7001',
      },
    });
    expect(await acceptReview(reviewComment('Use the existing splitLines helper from src/text.ts here.'), deps)).toMatchObject({
      outcome: 'ignored',
      why: 'delivery d-1 was handled before',
    });
  });

  it('accept review - a command, a short approval, a PR proofpr has no record of, or a reader are not learned from', async () => {
    fakeGitHub({ permissions: { maintainer: 'read' } });
    const github = port();
    const deps = (owned?: string[]) => ({ github, loadConfig: (ref?: string) => loadRepoConfig(github, ref), ledger: ledger(owned) });
    expect((await acceptReview(reviewComment('/agent fix also handle CRLF'), deps())).outcome).toBe('ignored');
    expect((await acceptReview(reviewComment('LGTM'), deps())).outcome).toBe('ignored');
    expect(await acceptReview(reviewComment('Use the existing splitLines helper.', 'd-2'), deps([]))).toMatchObject({
      why: "PR #13 is not proofpr's own",
    });
    expect(await acceptReview(reviewComment('Use the existing splitLines helper.', 'd-3'), deps())).toMatchObject({
      why: 'maintainer is not among the authorized maintainers',
    });
    expect(
      (await acceptReview({ name: 'issue_comment', deliveryId: 'd-4', payload: payload('issue_comment.created') }, deps())).outcome,
    ).toBe('ignored');
  });
});

// Leave no interceptor behind for the next test file in this worker (it may talk to a local server).
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});
