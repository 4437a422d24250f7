/**
 * Is this webhook a review that proofpr may learn from? A review or a review comment (not a command: those
 * go to the one intake) on proofpr's OWN pull request (pr-ownership.ts: same repository, a branch its
 * state says it created), written by someone the config authorizes (the repository permission API, never
 * author_association), delivered once. Only then is it worth a model request (memory/learn-from-review.ts).
 */
import { authorize } from '../github/authorize.js';
import { parseEvent } from '../github/event.js';
import type { GitHubPort } from '../github/port.js';
import type { LoadedConfig } from '../github/repo-config.js';
import { mayBeCommand } from '../github/trigger.js';
import { prOwnership, pullRequestFacts, type BranchLedger } from './pr-ownership.js';
import type { ReviewNote } from '../memory/types.js';

type Awaitable<T> = T | Promise<T>;

export interface AcceptReviewDeps {
  github: GitHubPort;
  loadConfig(ref?: string): Promise<LoadedConfig>;
  /** The App's state: who created which branch, and the deliveries seen. */
  ledger: BranchLedger & { recordDelivery(deliveryId: string): Awaitable<boolean> };
  selfLogin?: string;
}

/** Shorter than this is approval or thanks: nothing to learn, no model request. */
const MIN_BODY = 12;

export interface ReviewToLearn {
  outcome: 'learn';
  note: ReviewNote;
  /** The config's model and comment prefix (from the PR's base branch). */
  modelId: string;
  trigger: string;
  installationId?: number;
}

export type ReviewAcceptance = ReviewToLearn | { outcome: 'ignored'; why: string };

export async function acceptReview(
  evt: { name: string; deliveryId: string; payload: unknown },
  deps: AcceptReviewDeps,
): Promise<ReviewAcceptance> {
  const ignored = (why: string): ReviewAcceptance => ({ outcome: 'ignored', why });
  if (evt.name !== 'pull_request_review' && evt.name !== 'pull_request_review_comment') return ignored('not a review');
  const facts = parseEvent(evt.name, evt.deliveryId, evt.payload, deps.selfLogin ? { selfLogin: deps.selfLogin } : {});
  if (!facts || facts.type !== 'comment' || facts.target !== 'pr') return ignored('not a new review by a person');
  if (facts.commentKind !== 'review' && facts.commentKind !== 'review-comment') return ignored('not a review');
  if (facts.commentBody.trim().length < MIN_BODY) return ignored('the review has no text to learn from');
  if (mayBeCommand(facts.commentBody)) return ignored('a command is the intake’s');
  const { github } = deps;
  const pr = await pullRequestFacts(github, facts);
  if (!pr) return ignored(`PR #${facts.number} was not found`);
  const owner = await prOwnership(pr, `${facts.owner}/${facts.repo}`, deps.ledger);
  if (owner.kind !== 'own') return ignored(`PR #${facts.number} is not proofpr's own`);
  const loaded = await deps.loadConfig(pr.baseRef);
  if (!loaded.ok) return ignored('.github/proofpr.yml is invalid');
  if (!(await authorize(github, facts.actor, loaded.config.authorized)).ok)
    return ignored(`${facts.actor} is not among the authorized maintainers`);
  if (!(await deps.ledger.recordDelivery(evt.deliveryId))) return ignored(`delivery ${evt.deliveryId} was handled before`);
  const anchor = facts.commentKind === 'review' ? `#pullrequestreview-${facts.commentId}` : `#discussion_r${facts.commentId}`;
  const note: ReviewNote = {
    owner: facts.owner,
    repo: facts.repo,
    pr: facts.number,
    prTitle: facts.title,
    kind: facts.commentKind,
    body: facts.commentBody,
    author: facts.actor,
    at: facts.commentCreatedAt,
    url: `${github.htmlUrl(facts.number).replace(/\/issues\/(\d+)$/, '/pull/$1')}${anchor}`,
  };
  const installation = facts.installationId !== undefined ? { installationId: facts.installationId } : {};
  return { outcome: 'learn', note, modelId: loaded.config.model, trigger: loaded.config.trigger, ...installation };
}
