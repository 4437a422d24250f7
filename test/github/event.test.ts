import { describe, it, expect } from '@jest/globals';
import { parseEvent } from '../../src/github/event.js';
import { toTrigger, parseCommand } from '../../src/github/trigger.js';
import { payload } from './payloads.js';

const settings = { trigger: '/agent', trigger_label: 'proofpr:fix' };

describe('event - webhook to trigger', () => {
  it('event - /agent fix on an issue becomes a fix trigger with the instructions', () => {
    const facts = parseEvent('issue_comment', 'd-1', payload('issue_comment.created'));
    const t = facts && toTrigger(facts, settings);
    expect(t).toMatchObject({
      kind: 'fix',
      target: 'issue',
      via: 'comment',
      owner: 'acme',
      repo: 'widgets',
      number: 12,
      commenter: 'maintainer',
      commenterId: 1001,
      commentId: 5001,
      commentCreatedAt: '2026-11-29T10:00:00Z',
      instructions: 'please keep the public API unchanged',
      installationId: 42,
      deliveryId: 'd-1',
      defaultBranch: 'main',
    });
  });

  it('event - plan, status and cancel are recognised; unknown verbs and quoted commands are not', () => {
    expect(parseCommand('/agent plan', '/agent')).toEqual({ kind: 'plan', instructions: '' });
    expect(parseCommand('  /agent STATUS', '/agent')).toEqual({ kind: 'status', instructions: '' });
    expect(parseCommand('/agent cancel now', '/agent')?.kind).toBe('cancel');
    expect(parseCommand('/agent deploy', '/agent')).toBeUndefined();
    expect(parseCommand('/agentfix', '/agent')).toBeUndefined();
    expect(parseCommand('> /agent fix', '/agent')).toBeUndefined();
    expect(parseCommand('see /agent fix', '/agent')).toBeUndefined();
  });

  it('event - the prefix comes from the config', () => {
    const p = payload('issue_comment.created', (x) => (x.comment.body = '@bot fix it'));
    const facts = parseEvent('issue_comment', 'd', p);
    expect(facts && toTrigger(facts, { trigger: '@bot' })?.kind).toBe('fix');
    expect(facts && toTrigger(facts, { trigger: '/agent' })).toBeUndefined();
  });

  it('event - edited comments never trigger', () => {
    expect(
      parseEvent(
        'issue_comment',
        'd',
        payload('issue_comment.created', (p) => (p.action = 'edited')),
      ),
    ).toBeUndefined();
  });

  it('event - comments by any bot never trigger (type Bot, [bot] login, the App itself)', () => {
    const asBot = payload('issue_comment.created', (p) => {
      p.sender = { login: 'ci-helper', type: 'Bot' };
      p.comment.user = p.sender;
    });
    expect(parseEvent('issue_comment', 'd', asBot)).toBeUndefined();
    const named = payload('issue_comment.created', (p) => {
      p.sender = { login: 'renovate[bot]', type: 'User' };
      p.comment.user = p.sender;
    });
    expect(parseEvent('issue_comment', 'd', named)).toBeUndefined();
    const self = payload('issue_comment.created', (p) => {
      p.sender = { login: 'proofpr-dev', type: 'User' };
      p.comment.user = p.sender;
    });
    expect(parseEvent('issue_comment', 'd', self, { selfLogin: 'proofpr-dev' })).toBeUndefined();
  });

  it('event - the configured label on an issue is a fix by the sender; other labels are ignored', () => {
    const facts = parseEvent('issues', 'd', payload('issues.labeled'));
    expect(facts && toTrigger(facts, settings)).toMatchObject({ kind: 'fix', via: 'label', commenter: 'maintainer', instructions: '' });
    expect(facts && toTrigger(facts, { trigger: '/agent' })).toBeUndefined();
    const other = parseEvent(
      'issues',
      'd',
      payload('issues.labeled', (p) => (p.label.name = 'bug')),
    );
    expect(other && toTrigger(other, settings)).toBeUndefined();
  });

  it('event - a review comment on a PR carries the head and base branches', () => {
    const facts = parseEvent('pull_request_review_comment', 'd', payload('pull_request_review_comment.created'));
    expect(facts && toTrigger(facts, settings)).toMatchObject({
      kind: 'fix',
      target: 'pr',
      number: 13,
      headRef: 'proofpr/12-parser-drops-the-last-line',
      baseRef: 'main',
    });
  });

  it('event - a review comment carries its kind and the head repository; a submitted review with a command is a trigger', () => {
    const facts = parseEvent('pull_request_review_comment', 'd', payload('pull_request_review_comment.created'));
    expect(facts).toMatchObject({ commentKind: 'review-comment', headRepo: 'acme/widgets' });
    const review = {
      action: 'submitted',
      review: {
        id: 77,
        body: '/agent fix the two threads',
        submitted_at: '2026-11-29T12:00:00Z',
        user: { login: 'maintainer', id: 1001, type: 'User' },
      },
      pull_request: {
        number: 13,
        title: 'T',
        body: '',
        head: { ref: 'proofpr/12-x', repo: { full_name: 'evil/widgets' } },
        base: { ref: 'main' },
      },
      repository: { name: 'widgets', owner: { login: 'acme' } },
      sender: { login: 'maintainer', id: 1001, type: 'User' },
      installation: { id: 42 },
    };
    const f = parseEvent('pull_request_review', 'd', review);
    expect(f && toTrigger(f, settings)).toMatchObject({
      kind: 'fix',
      target: 'pr',
      commentId: 77,
      commentKind: 'review',
      headRepo: 'evil/widgets',
      instructions: 'the two threads',
    });
    expect(parseEvent('pull_request_review', 'd', { ...review, action: 'edited' })).toBeUndefined();
  });

  it('event - an issue comment on a PR is a PR target; plan is not offered on PRs', () => {
    const p = payload('issue_comment.created', (x) => (x.issue.pull_request = { url: 'x' }));
    expect(parseEvent('issue_comment', 'd', p)?.target).toBe('pr');
    const plan = payload('issue_comment.created', (x) => {
      x.issue.pull_request = { url: 'x' };
      x.comment.body = '/agent plan';
    });
    const f = parseEvent('issue_comment', 'd', plan);
    expect(f && toTrigger(f, settings)).toBeUndefined();
  });

  it('event - payloads of other shapes are ignored, not thrown on', () => {
    expect(parseEvent('issue_comment', 'd', { action: 'created' })).toBeUndefined();
    expect(parseEvent('push', 'd', {})).toBeUndefined();
    expect(
      parseEvent(
        'issues',
        'd',
        payload('issues.labeled', (p) => (p.action = 'opened')),
      ),
    ).toBeUndefined();
  });
});
