import { describe, it, expect, afterEach, afterAll } from '@jest/globals';
import nock from 'nock';
import { reactionEndpoint, reactionTargetOf, type ReactionEndpoint, type ReactionTarget } from '../../src/github/reaction-endpoint.js';
import { createGitHubPort } from '../../src/github/github-port.js';
import { createTokenOctokit } from '../../src/github/token-octokit.js';
import { parseEvent } from '../../src/github/event.js';
import { toTrigger, type Trigger } from '../../src/github/trigger.js';
import { payload } from './payloads.js';

describe('reaction endpoint - one per comment kind', () => {
  afterEach(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });

  it('reaction - an issue comment, a review comment and the issue itself each have their own endpoint', () => {
    const onIssueComment = 'POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions';
    const endpoints: Array<[ReactionTarget, ReactionEndpoint]> = [
      [
        { commentId: 5, kind: 'issue-comment' },
        { route: onIssueComment, params: { comment_id: 5 } },
      ],
      [{ commentId: 5 }, { route: onIssueComment, params: { comment_id: 5 } }],
      [
        { commentId: 7, kind: 'review-comment' },
        { route: 'POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions', params: { comment_id: 7 } },
      ],
      [{ issue: 12 }, { route: 'POST /repos/{owner}/{repo}/issues/{issue_number}/reactions', params: { issue_number: 12 } }],
    ];
    for (const [target, endpoint] of endpoints) expect(reactionEndpoint(target)).toEqual(endpoint);
  });

  it('reaction - the trigger decides: review comment → pulls/comments, issue comment → issues/comments, review or label → the PR/issue', () => {
    const settings = { trigger: '/agent' };
    const review = parseEvent('pull_request_review_comment', 'd', payload('pull_request_review_comment.created'));
    expect(review && reactionTargetOf(toTrigger(review, settings) as Trigger)).toEqual({ commentId: 7001, kind: 'review-comment' });
    const issue = parseEvent(
      'issue_comment',
      'd',
      payload('issue_comment.created', (p) => (p.comment.body = '/agent fix')),
    );
    expect(issue && reactionTargetOf(toTrigger(issue, settings) as Trigger)).toEqual({ commentId: 5001, kind: 'issue-comment' });
    expect(reactionTargetOf({ number: 13, commentId: 99, commentKind: 'review' })).toEqual({ issue: 13 });
    expect(reactionTargetOf({ number: 12 })).toEqual({ issue: 12 });
  });

  it('reaction - the Octokit port posts a review comment reaction to the pull-request review-comment endpoint', async () => {
    nock.disableNetConnect();
    const api = nock('https://api.github.com')
      .post('/repos/acme/widgets/pulls/comments/7001/reactions', { content: 'eyes' })
      .reply(201, { id: 1, content: 'eyes' })
      .post('/repos/acme/widgets/issues/comments/5001/reactions', { content: '+1' })
      .reply(201, { id: 2, content: '+1' });
    const port = createGitHubPort(createTokenOctokit({ token: 't' }), { owner: 'acme', repo: 'widgets' });
    await port.addReaction({ commentId: 7001, kind: 'review-comment' }, 'eyes');
    await port.addReaction({ commentId: 5001, kind: 'issue-comment' }, '+1');
    expect(api.isDone()).toBe(true);
  });
});

// Leave no interceptor behind for the next test file in this worker (it may talk to a local server).
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});
