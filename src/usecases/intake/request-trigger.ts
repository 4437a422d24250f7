/**
 * The facts of a request → a Trigger and its config, before anything is decided. A comment that no
 * config could read as a command is dropped before any API call; a PR comment is checked for whose PR
 * it is (a fork's goes on to get its one reply); a follow-up's config comes from the PR's base branch.
 */
import { parseEvent } from '../../github/event.js';
import type { GitHubPort } from '../../github/port.js';
import type { LoadedConfig } from '../../github/repo-config.js';
import { BRANCH_PREFIX, mayBeCommand, toTrigger, type Trigger } from '../../github/trigger.js';
import { pullRequestFacts } from '../pr-ownership.js';

/** A webhook (the App) or the workflow's event (the Action). */
export interface EventRequest {
  kind: 'event';
  name: string;
  deliveryId: string;
  payload: unknown;
}

/** A direct request for an issue (the CLI's `run --github-repo --issue`): the token holder asks. */
export interface IssueRequest {
  kind: 'issue';
  number: number;
  title: string;
  body: string;
  requester?: { login: string; id?: number };
  deliveryId: string;
  defaultBranch?: string;
}

export type RequestFacts = EventRequest | IssueRequest;

export type Triggered = { trigger: Trigger; loaded: LoadedConfig } | { trigger?: undefined; why: string };

type LoadConfig = (ref?: string) => Promise<LoadedConfig>;

export async function requestTrigger(
  req: RequestFacts,
  github: GitHubPort,
  loadConfig: LoadConfig,
  selfLogin?: string,
): Promise<Triggered> {
  if (req.kind === 'issue') return { trigger: issueTrigger(req, github), loaded: await loadConfig() };
  const facts = parseEvent(req.name, req.deliveryId, req.payload, selfLogin ? { selfLogin } : {});
  if (!facts) return { why: `this ${req.name} event cannot start a run (a bot, an edit, or not a new comment or label)` };
  if (facts.type === 'comment' && !mayBeCommand(facts.commentBody)) return { why: 'the comment is not a command' };
  let configRef: string | undefined;
  if (facts.target === 'pr') {
    const pr = await pullRequestFacts(github, facts);
    if (!pr) return { why: `PR #${facts.number} was not found` };
    facts.headRef = pr.headRef;
    facts.baseRef = pr.baseRef;
    if (pr.headRepo !== undefined) facts.headRepo = pr.headRepo;
    // A same-repository PR on another branch is somebody's own work: not a command for proofpr. A fork's
    // PR goes on, whatever its branch is named, to get its one reply.
    const fork = pr.headRepo === undefined || pr.headRepo.toLowerCase() !== `${facts.owner}/${facts.repo}`.toLowerCase();
    if (!fork && !pr.headRef.startsWith(BRANCH_PREFIX))
      return { why: `PR #${facts.number} is on branch ${pr.headRef}, not one of proofpr's` };
    // A follow-up's config comes from the base branch, never from the PR head.
    configRef = facts.baseRef;
  }
  const loaded = await loadConfig(configRef);
  const settings = loaded.ok ? loaded.config : { trigger: loaded.trigger };
  const trigger = toTrigger(facts, settings);
  if (trigger) return { trigger, loaded };
  return {
    why:
      facts.type === 'label'
        ? `label ${facts.label} is not the configured trigger_label`
        : facts.type === 'assign'
          ? 'trigger_on_assign is false in .github/proofpr.yml'
          : `the comment is not a \`${settings.trigger}\` command`,
  };
}

function issueTrigger(req: IssueRequest, github: GitHubPort): Trigger {
  const t: Trigger = {
    kind: 'fix',
    target: 'issue',
    via: 'comment',
    owner: github.owner,
    repo: github.repo,
    number: req.number,
    title: req.title,
    body: req.body,
    commenter: req.requester?.login ?? '',
    commentCreatedAt: new Date().toISOString(),
    instructions: '',
    deliveryId: req.deliveryId,
  };
  if (req.requester?.id !== undefined) t.commenterId = req.requester.id;
  if (req.defaultBranch) t.defaultBranch = req.defaultBranch;
  return t;
}
