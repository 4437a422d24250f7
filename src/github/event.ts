/**
 * The webhook, parsed once (zod on the payload subsets we read) into WebhookFacts. Downstream code
 * narrows on `type`; nothing else digs in the raw payload. Bots and edited comments are dropped here.
 */
import { z } from 'zod';
import type { CommentKind } from './reaction-endpoint.js';

const user = z.object({ login: z.string(), id: z.number().optional(), type: z.string().optional() });
const repository = z.object({ name: z.string(), owner: z.object({ login: z.string() }), default_branch: z.string().optional() });
const installation = z.object({ id: z.number() }).optional();
const comment = z.object({
  id: z.number(),
  body: z.string().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string().optional(),
  user: user.nullable(),
  html_url: z.string().optional(),
});
const issue = z.object({
  number: z.number(),
  title: z.string(),
  body: z.string().nullable().optional(),
  pull_request: z.unknown().optional(),
});
const pullRequest = z.object({
  number: z.number(),
  title: z.string(),
  body: z.string().nullable().optional(),
  head: z.object({ ref: z.string(), repo: z.object({ full_name: z.string() }).nullable().optional() }),
  base: z.object({ ref: z.string() }),
});
const review = z.object({
  id: z.number(),
  body: z.string().nullable().optional(),
  submitted_at: z.string().nullable().optional(),
  user: user.nullable(),
});

const issueComment = z.object({ action: z.string(), comment, issue, repository, sender: user, installation });
const reviewComment = z.object({ action: z.string(), comment, pull_request: pullRequest, repository, sender: user, installation });
const reviewSubmitted = z.object({ action: z.string(), review, pull_request: pullRequest, repository, sender: user, installation });
const assigned = z.object({
  action: z.literal('assigned'),
  assignee: user.nullable().optional(),
  issue,
  repository,
  sender: user,
  installation,
});
const labeled = z.object({
  action: z.literal('labeled'),
  label: z.object({ name: z.string() }),
  issue,
  repository,
  sender: user,
  installation,
});

/** What an event and the Trigger made from it share: where it happened and about what (one definition for both). */
export interface EventSubject {
  target: 'issue' | 'pr';
  owner: string;
  repo: string;
  number: number;
  /** Title and body as they were when the event fired (later edits are ignored; untrusted, not yet sanitized). */
  title: string;
  body: string;
  installationId?: number;
  deliveryId: string;
  defaultBranch?: string;
  /** Known for review comments; for issue comments on a PR the host looks the PR up. */
  headRef?: string;
  baseRef?: string;
  /** Full name of the PR's head repository when the payload carries it ('' when that repository was deleted). */
  headRepo?: string;
}

interface Common extends EventSubject {
  actor: string;
  actorId?: number;
}

export type WebhookFacts =
  | (Common & { type: 'comment'; commentId: number; commentKind: CommentKind; commentCreatedAt: string; commentBody: string })
  | (Common & { type: 'label'; label: string; at: string })
  /** An issue assigned to the App's bot user (`actor` is who assigned it). */
  | (Common & { type: 'assign'; assignee: string; at: string });

export interface ParseOptions {
  /** The App's own login (e.g. "proofpr[bot]"): never a trigger, whatever its type says; an assignment to it may be one. */
  selfLogin?: string;
}

/** A bot never triggers a run: type Bot, a "[bot]" login, or the App itself. */
export function isBot(u: { login: string; type?: string | undefined } | null | undefined, selfLogin?: string): boolean {
  if (!u) return true;
  return u.type === 'Bot' || /\[bot\]$/i.test(u.login) || (selfLogin !== undefined && u.login.toLowerCase() === selfLogin.toLowerCase());
}

interface Envelope {
  repository: z.infer<typeof repository>;
  sender: z.infer<typeof user>;
  installation?: { id: number } | undefined;
}

function base(p: Envelope, deliveryId: string): Omit<Common, 'target' | 'title' | 'body' | 'number'> {
  return {
    owner: p.repository.owner.login,
    repo: p.repository.name,
    actor: p.sender.login,
    ...(p.sender.id !== undefined ? { actorId: p.sender.id } : {}),
    ...(p.installation ? { installationId: p.installation.id } : {}),
    deliveryId,
    ...(p.repository.default_branch ? { defaultBranch: p.repository.default_branch } : {}),
  };
}

function prFacts(pr: z.infer<typeof pullRequest>): Pick<Common, 'number' | 'title' | 'body' | 'headRef' | 'baseRef' | 'headRepo'> {
  const headRepo = pr.head.repo === undefined ? {} : { headRepo: pr.head.repo?.full_name ?? '' };
  return { number: pr.number, title: pr.title, body: pr.body ?? '', headRef: pr.head.ref, baseRef: pr.base.ref, ...headRepo };
}

/** Parse a webhook (name, delivery id, payload) into facts, or undefined when it can never trigger. */
export function parseEvent(name: string, deliveryId: string, payload: unknown, opts: ParseOptions = {}): WebhookFacts | undefined {
  if (name === 'issue_comment' || name === 'pull_request_review_comment') {
    const res = name === 'issue_comment' ? issueComment.safeParse(payload) : reviewComment.safeParse(payload);
    if (!res.success) return undefined;
    const p = res.data;
    if (p.action !== 'created') return undefined;
    if (isBot(p.sender, opts.selfLogin) || isBot(p.comment.user, opts.selfLogin)) return undefined;
    const commentUser = p.comment.user ?? p.sender;
    const common = {
      ...base(p, deliveryId),
      actor: commentUser.login,
      ...(commentUser.id !== undefined ? { actorId: commentUser.id } : {}),
    };
    const kind: CommentKind = name === 'issue_comment' ? 'issue-comment' : 'review-comment';
    const c = {
      type: 'comment' as const,
      commentId: p.comment.id,
      commentKind: kind,
      commentCreatedAt: p.comment.created_at,
      commentBody: p.comment.body ?? '',
    };
    if ('pull_request' in p && p.pull_request && typeof p.pull_request === 'object' && 'head' in p.pull_request) {
      const pr = (p as z.infer<typeof reviewComment>).pull_request;
      return { ...common, ...c, target: 'pr', ...prFacts(pr) };
    }
    const is = (p as z.infer<typeof issueComment>).issue;
    return { ...common, ...c, target: is.pull_request ? 'pr' : 'issue', number: is.number, title: is.title, body: is.body ?? '' };
  }
  if (name === 'pull_request_review') {
    const res = reviewSubmitted.safeParse(payload);
    if (!res.success) return undefined;
    const p = res.data;
    if (p.action !== 'submitted' || isBot(p.sender, opts.selfLogin) || isBot(p.review.user, opts.selfLogin)) return undefined;
    const reviewer = p.review.user ?? p.sender;
    return {
      ...base(p, deliveryId),
      actor: reviewer.login,
      ...(reviewer.id !== undefined ? { actorId: reviewer.id } : {}),
      type: 'comment',
      commentId: p.review.id,
      commentKind: 'review',
      commentCreatedAt: p.review.submitted_at ?? new Date().toISOString(),
      commentBody: p.review.body ?? '',
      target: 'pr',
      ...prFacts(p.pull_request),
    };
  }
  if (name === 'issues' && (payload as { action?: unknown } | null)?.action === 'assigned') return parseAssigned(deliveryId, payload, opts);
  if (name === 'issues') {
    const res = labeled.safeParse(payload);
    if (!res.success || isBot(res.data.sender, opts.selfLogin)) return undefined;
    return { ...issueEvent(res.data, deliveryId), type: 'label', label: res.data.label.name };
  }
  return undefined;
}

/** `issues.assigned` to the App's own bot user (the login must be known), by a person: facts for a fix. */
function parseAssigned(deliveryId: string, payload: unknown, opts: ParseOptions): WebhookFacts | undefined {
  const res = assigned.safeParse(payload);
  if (!res.success || !opts.selfLogin || isBot(res.data.sender, opts.selfLogin)) return undefined;
  const p = res.data;
  if (p.issue.pull_request || p.assignee?.login.toLowerCase() !== opts.selfLogin.toLowerCase()) return undefined;
  return { ...issueEvent(p, deliveryId), type: 'assign', assignee: p.assignee.login };
}

/** The facts every `issues` event (labeled, assigned) shares: the issue as it was, and now. */
function issueEvent(p: Envelope & { issue: z.infer<typeof issue> }, deliveryId: string): Common & { at: string } {
  return {
    ...base(p, deliveryId),
    at: new Date().toISOString(),
    target: 'issue',
    number: p.issue.number,
    title: p.issue.title,
    body: p.issue.body ?? '',
  };
}

/** The facts of a `check_suite.completed` webhook the draft-until-CI flow reads. */
export interface SuiteCompleted {
  headSha: string;
  conclusion: string | null;
  headBranch?: string;
  /** Slug of the App whose suite it is. */
  app?: string;
  /** PRs GitHub links the suite to (same-repository heads only). */
  prNumbers: number[];
}

const checkSuite = z.object({
  action: z.literal('completed'),
  check_suite: z.object({
    head_sha: z.string(),
    conclusion: z.string().nullable().optional(),
    head_branch: z.string().nullable().optional(),
    app: z.object({ slug: z.string().optional() }).nullable().optional(),
    pull_requests: z.array(z.object({ number: z.number() })).default([]),
  }),
});

/** A completed check suite, or undefined when the payload is not one. */
export function parseCheckSuite(payload: unknown): SuiteCompleted | undefined {
  const res = checkSuite.safeParse(payload);
  if (!res.success) return undefined;
  const s = res.data.check_suite;
  return {
    headSha: s.head_sha,
    conclusion: s.conclusion ?? null,
    ...(s.head_branch ? { headBranch: s.head_branch } : {}),
    ...(s.app?.slug ? { app: s.app.slug } : {}),
    prNumbers: s.pull_requests.map((p) => p.number),
  };
}
