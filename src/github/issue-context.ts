/**
 * The task body the model sees for an issue: the issue text as of the trigger, then the discussion, each
 * sanitized and quoted. Only comments by authorized humans written before the trigger comment are kept;
 * a comment edited after the trigger is left out (its pre-trigger text is unknown) and counted in a note.
 */
import type { GitHubPort, IssueComment } from './port.js';
import { authorize } from './authorize.js';
import { quoteUntrusted } from './sanitize.js';
import { isBot } from './event.js';

export interface IssueContextInput {
  number: number;
  title: string;
  body: string;
  comments: IssueComment[];
  /** ISO time of the trigger (comment created_at or label time). */
  triggerAt: string;
  triggerCommentId?: number;
  /** Logins whose repository permission is in `authorized`. */
  authorized: ReadonlySet<string>;
  selfLogin?: string;
}

export function buildIssueContext(inp: IssueContextInput): {
  body: string;
  included: number;
  excluded: { editedAfter: number; unauthorized: number };
} {
  const t = Date.parse(inp.triggerAt);
  const parts = [quoteUntrusted(`Issue #${inp.number} body`, inp.body)];
  let editedAfter = 0;
  let unauthorized = 0;
  let included = 0;
  for (const c of inp.comments) {
    if (c.id === inp.triggerCommentId) continue;
    if (Date.parse(c.createdAt) >= t) continue;
    if (isBot({ login: c.user, ...(c.userType ? { type: c.userType } : {}) }, inp.selfLogin)) continue;
    if (!inp.authorized.has(c.user)) {
      unauthorized++;
      continue;
    }
    if (Date.parse(c.updatedAt) > t) {
      editedAfter++;
      continue;
    }
    included++;
    parts.push(quoteUntrusted(`Comment by @${c.user} at ${c.createdAt}`, c.body));
  }
  if (editedAfter > 0) parts.push(`(${editedAfter} comment(s) edited after the request were left out.)`);
  return { body: parts.join('\n\n'), included, excluded: { editedAfter, unauthorized } };
}

/**
 * Read the issue's comments, ask the permission API once per distinct commenter, and build the context
 * from the authorized ones (fixes and PR follow-ups both start here).
 */
export async function loadIssueContext(
  github: Pick<GitHubPort, 'listComments' | 'permission'>,
  t: { number: number; title: string; body: string; commentCreatedAt: string; commentId?: number },
  allowed: readonly string[],
): Promise<ReturnType<typeof buildIssueContext>> {
  const comments = await github.listComments(t.number);
  const authorizedLogins = new Set<string>();
  for (const login of new Set(comments.map((c) => c.user))) {
    if ((await authorize(github, login, allowed)).ok) authorizedLogins.add(login);
  }
  return buildIssueContext({
    number: t.number,
    title: t.title,
    body: t.body,
    comments,
    triggerAt: t.commentCreatedAt,
    ...(t.commentId !== undefined ? { triggerCommentId: t.commentId } : {}),
    authorized: authorizedLogins,
  });
}
