/**
 * Which REST endpoint a reaction goes to. GitHub keeps reactions per kind of thing: an issue or PR
 * conversation, an issue comment (also a PR's conversation comments), and a pull-request review comment
 * (a comment on a diff line) each have their own endpoint, and a review comment's id means nothing to the
 * issue-comment one (it answers 404). A review itself (the body of "Submit review") has no reactions at
 * all, so a command there is acknowledged on the pull request.
 */
import type { Trigger } from './trigger.js';

/** Where a command was written. */
export type CommentKind = 'issue-comment' | 'review-comment' | 'review';

export type ReactionTarget = { issue: number } | { commentId: number; kind?: 'issue-comment' | 'review-comment' };

export interface ReactionEndpoint {
  route:
    | 'POST /repos/{owner}/{repo}/issues/{issue_number}/reactions'
    | 'POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions'
    | 'POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions';
  params: { issue_number: number } | { comment_id: number };
}

export function reactionEndpoint(target: ReactionTarget): ReactionEndpoint {
  if ('issue' in target)
    return { route: 'POST /repos/{owner}/{repo}/issues/{issue_number}/reactions', params: { issue_number: target.issue } };
  if (target.kind === 'review-comment')
    return { route: 'POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions', params: { comment_id: target.commentId } };
  return { route: 'POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', params: { comment_id: target.commentId } };
}

/** What to react on for a trigger: its comment (of the right kind), or the issue/PR when there is none. */
export function reactionTargetOf(t: Pick<Trigger, 'number' | 'commentId' | 'commentKind'>): ReactionTarget {
  if (t.commentId === undefined || t.commentKind === 'review') return { issue: t.number };
  return { commentId: t.commentId, kind: t.commentKind ?? 'issue-comment' };
}
