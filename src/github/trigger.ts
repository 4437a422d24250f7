/**
 * WebhookFacts + the repository's trigger settings → a Trigger (what the user asked for), or undefined.
 * `/agent fix [instructions]`, `/agent plan [instructions]`, `/agent status`, `/agent cancel`, `/agent memory`,
 * `/agent forget N`; the prefix is config `trigger`. A configured `trigger_label` on an issue is a fix.
 */
import type { EventSubject, WebhookFacts } from './event.js';
import type { CommentKind } from './reaction-endpoint.js';

export type TriggerKind = 'fix' | 'plan' | 'status' | 'cancel' | 'memory' | 'forget';

export interface Trigger extends EventSubject {
  kind: TriggerKind;
  /**
   * How it was asked for: a comment, the configured label, an assignment to the App's bot user, or a push
   * that moved the base branch of proofpr's PR (`ci.auto_update`; nobody commented, so no commenter).
   */
  via: 'comment' | 'label' | 'assign' | 'base-update';
  commenter: string;
  commenterId?: number;
  commentId?: number;
  /** Where the command was written (decides the reaction endpoint). */
  commentKind?: CommentKind;
  /** When the trigger happened: the comment's created_at, or the label or assignment event's time. */
  commentCreatedAt: string;
  /** Free text after the verb (untrusted, not yet sanitized). */
  instructions: string;
}

export interface TriggerSettings {
  trigger: string;
  trigger_label?: string | undefined;
  /** Default true: an assignment to the App's bot user is a fix. */
  trigger_on_assign?: boolean | undefined;
}

const VERBS: ReadonlySet<string> = new Set(['fix', 'plan', 'status', 'cancel', 'memory', 'forget']);

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Could this text be a command under any configured prefix? `<prefix> <verb>` on its first line, the verb a
 * word after a blank. False means no config can make it one, so it is dropped before any API call (the
 * config, which names the prefix, is read only for text that passes).
 */
export function mayBeCommand(text: string): boolean {
  return /^\s*\S[^\n]*?[ \t](fix|plan|status|cancel|memory|forget)\b/i.test(text);
}

/** Parse `<prefix> <verb> [instructions]` at the very start of a comment; anything else is not a command. */
export function parseCommand(text: string, prefix: string): { kind: TriggerKind; instructions: string } | undefined {
  const m = new RegExp(`^\\s*${escapeRegex(prefix)}[ \\t]+([A-Za-z]+)\\b([\\s\\S]*)$`).exec(text);
  if (!m) return undefined;
  const verb = (m[1] ?? '').toLowerCase();
  if (!VERBS.has(verb)) return undefined;
  return { kind: verb as TriggerKind, instructions: (m[2] ?? '').trim() };
}

export function toTrigger(facts: WebhookFacts, settings: TriggerSettings): Trigger | undefined {
  const common = {
    target: facts.target,
    owner: facts.owner,
    repo: facts.repo,
    number: facts.number,
    title: facts.title,
    body: facts.body,
    commenter: facts.actor,
    ...(facts.actorId !== undefined ? { commenterId: facts.actorId } : {}),
    ...(facts.installationId !== undefined ? { installationId: facts.installationId } : {}),
    deliveryId: facts.deliveryId,
    ...(facts.defaultBranch ? { defaultBranch: facts.defaultBranch } : {}),
    ...(facts.headRef ? { headRef: facts.headRef } : {}),
    ...(facts.baseRef ? { baseRef: facts.baseRef } : {}),
    ...(facts.headRepo !== undefined ? { headRepo: facts.headRepo } : {}),
  };
  if (facts.type === 'assign') {
    if (settings.trigger_on_assign === false) return undefined;
    return { ...common, kind: 'fix', via: 'assign', commentCreatedAt: facts.at, instructions: '' };
  }
  if (facts.type === 'label') {
    if (!settings.trigger_label || facts.label !== settings.trigger_label) return undefined;
    return { ...common, kind: 'fix', via: 'label', commentCreatedAt: facts.at, instructions: '' };
  }
  const cmd = parseCommand(facts.commentBody, settings.trigger);
  if (!cmd) return undefined;
  // On a pull request only a follow-up fix (and status/cancel) make sense; plan is for issues.
  if (facts.target === 'pr' && cmd.kind === 'plan') return undefined;
  return {
    ...common,
    kind: cmd.kind,
    via: 'comment',
    commentId: facts.commentId,
    commentKind: facts.commentKind,
    commentCreatedAt: facts.commentCreatedAt,
    instructions: cmd.instructions,
  };
}

/** Branch prefix of every branch proofpr creates (CONTRACT §1). */
export const BRANCH_PREFIX = 'proofpr/';
