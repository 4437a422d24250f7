/**
 * One intake for every host. The facts of a request (a webhook, the workflow's event, the CLI's flags) →
 * trigger → authorize → whose PR → status/cancel → react → lease → status comment → mode: an accepted run
 * for the host to start (the App enqueues it, the Action and the CLI run it inline), or a reply already
 * posted. The replies are the same words everywhere (intake/replies.ts). A host with run state (the App)
 * passes its ledger: deliveries are deduplicated, one run per issue, status and cancel are answered.
 */
import type { RepoConfig } from '../config/repo-config.js';
import { repoConfigSchema } from '../config/repo-config.js';
import { authorize } from '../github/authorize.js';
import type { GitHubPort } from '../github/port.js';
import { reactionTargetOf } from '../github/reaction-endpoint.js';
import { invalidConfigComment, type LoadedConfig } from '../github/repo-config.js';
import { renderStatusComment } from '../github/status-comment.js';
import type { Trigger } from '../github/trigger.js';
import { replies } from './intake/replies.js';
import { requestTrigger, type RequestFacts } from './intake/request-trigger.js';
import type { RunLedger } from './ports.js';
import { FORK_REPLY, prOwnership } from './pr-ownership.js';
import { answerMemoryCommand } from '../memory/memory-commands.js';
import type { MemoryStore } from '../memory/types.js';

export type { RequestFacts } from './intake/request-trigger.js';

export type RunMode = 'fix' | 'plan' | 'follow-up';

/** A run the intake accepted: what a job carries (plus its id and status comment's link). */
export interface AcceptedRun {
  runId: string;
  mode: RunMode;
  trigger: Trigger;
  config: RepoConfig;
  statusCommentId: number;
  statusCommentUrl: string;
}

export type RefusalOutcome =
  'ignored' | 'redelivery' | 'invalid-config' | 'unauthorized' | 'status' | 'cancelled' | 'already-running' | 'refused' | 'memory';

export type Acceptance =
  | { outcome: 'accepted'; trigger: Trigger; run: AcceptedRun }
  /** `why`: one sentence for the host's log or job summary; any reply was already posted. */
  | { outcome: RefusalOutcome; why: string; trigger?: Trigger; runId?: string };

export interface AcceptDeps {
  github: GitHubPort;
  /** The repository config at `ref` (default branch when omitted): GitHub's file, or the Action's checkout. */
  loadConfig(ref?: string): Promise<LoadedConfig>;
  /** The App's run state; absent in hosts without memory (the Action, the CLI). */
  ledger?: RunLedger;
  /** Cancel a queued or running run (the App's queue). */
  cancel?(runId: string): Promise<'dequeued' | 'aborted' | 'not_found'>;
  newRunId(): string;
  /** The App's own login, e.g. "proofpr[bot]" (its comments never trigger). */
  selfLogin?: string;
  /**
   * The App's bot login asked of GitHub (`GET /app`, cached by the host) when `selfLogin` is not given: only
   * for what needs it (an assignment, a PR's ownership), so an event that is no command costs no API call.
   */
  botLogin?(): Promise<string | undefined>;
  /** The repository's feedback memory (`/agent memory`, `/agent forget N`); absent in hosts without one. */
  memory?: MemoryStore;
  /** The App's per-installation monthly budget (PROOFPR_INSTALLATION_MONTHLY_USD): every repository of the owner. */
  installationMonthlyUsd?: number;
}

/** The App's bot login when the host did not name it (the public App's slug). */
const DEFAULT_BOT_LOGIN = 'proofpr[bot]';

/** Who may trigger a run when the config cannot say (it is invalid): the schema's default. */
const DEFAULT_AUTHORIZED: readonly string[] = repoConfigSchema.parse({}).authorized;

/** An assignment is a trigger only when it names the App's own bot user: its login is asked for then. */
async function selfLoginFor(req: RequestFacts, deps: AcceptDeps): Promise<string | undefined> {
  if (deps.selfLogin || req.kind !== 'event' || req.name !== 'issues') return deps.selfLogin;
  if ((req.payload as { action?: unknown } | null)?.action !== 'assigned') return undefined;
  // GitHub did not say who the App is: an assignment cannot be told to be the bot's, so it is no trigger.
  return deps.botLogin?.().catch(() => undefined);
}

/** Whose PR this is: the host's login, else GitHub's answer, else the public App's. */
async function botLoginOf(deps: AcceptDeps): Promise<string> {
  return deps.selfLogin ?? (await deps.botLogin?.().catch(() => undefined)) ?? DEFAULT_BOT_LOGIN;
}

export async function acceptRequest(req: RequestFacts, deps: AcceptDeps): Promise<Acceptance> {
  const found = await requestTrigger(req, deps.github, deps.loadConfig, await selfLoginFor(req, deps));
  if (!found.trigger) return { outcome: 'ignored', why: found.why };
  const { trigger, loaded } = found;
  if (deps.ledger && !(await deps.ledger.recordDelivery(trigger.deliveryId)))
    return { outcome: 'redelivery', why: `delivery ${trigger.deliveryId} was handled before`, trigger };
  try {
    return await decide(trigger, loaded, req.kind === 'issue', deps);
  } catch (e) {
    // Nothing was started: let GitHub's redelivery (or a manual one) try again.
    await deps.ledger?.forgetDelivery?.(trigger.deliveryId);
    throw e;
  }
}

async function decide(trigger: Trigger, loaded: LoadedConfig, tokenHolderAsks: boolean, deps: AcceptDeps): Promise<Acceptance> {
  const { github } = deps;
  const reply = async (outcome: RefusalOutcome, text: string, why: string, runId?: string): Promise<Acceptance> => {
    await github.createComment(trigger.number, text);
    return { outcome, why, trigger, ...(runId ? { runId } : {}) };
  };
  if (!loaded.ok) {
    // The problems describe the repository's own file: only someone who could trigger a run sees them.
    if (!tokenHolderAsks && !(await authorize(github, trigger.commenter, DEFAULT_AUTHORIZED)).ok)
      return { outcome: 'unauthorized', why: `${trigger.commenter} may not trigger runs`, trigger };
    return reply('invalid-config', invalidConfigComment(loaded.problems), '.github/proofpr.yml is invalid');
  }
  const config = loaded.config;
  // The CLI's token holder is the requester: there is nobody else to authorize.
  if (!tokenHolderAsks) {
    const auth = await authorize(github, trigger.commenter, config.authorized);
    if (!auth.ok) {
      const why = `${trigger.commenter} may not trigger runs (repository permission ${auth.roleName ?? auth.permission}; needs one of ${config.authorized.join(', ')})`;
      return reply('unauthorized', replies.unauthorized(trigger.commenter, config.authorized), why);
    }
  }
  const repo = `${trigger.owner}/${trigger.repo}`;
  if (trigger.target === 'pr') {
    const pr = { headRef: trigger.headRef ?? '', ...(trigger.headRepo !== undefined ? { headRepo: trigger.headRepo } : {}) };
    const owner = await prOwnership(pr, repo, deps.ledger, {
      botLogin: await botLoginOf(deps),
      author: async () => (await github.getPullRequest(trigger.number))?.author,
    });
    // Adopted from GitHub's facts: the ledger now knows the branch, so the job's own check agrees.
    if (owner.kind === 'own' && owner.byFacts && trigger.headRef) await deps.ledger?.recordBranch(repo, trigger.headRef, 'github-facts');
    if (owner.kind === 'fork')
      return reply(
        'refused',
        FORK_REPLY,
        `PR #${trigger.number} comes from a fork (${owner.headRepo}): proofpr does not push to forks or run their code`,
      );
    if (owner.kind === 'not-ours')
      return reply('refused', replies.notOurs(owner.why), `PR #${trigger.number} is not proofpr's own: ${owner.why}`);
  }
  if (trigger.kind === 'status') return answerStatus(trigger, config, deps, reply);
  if (trigger.kind === 'cancel') return answerCancel(trigger, deps, reply);
  if (trigger.kind === 'memory' || trigger.kind === 'forget') {
    const answer = await answerMemoryCommand(trigger, config.trigger, deps.memory);
    return reply('memory', answer.text, answer.why);
  }
  return startRun(trigger, config, deps, reply, !tokenHolderAsks);
}

type Reply = (outcome: RefusalOutcome, text: string, why: string, runId?: string) => Promise<Acceptance>;

async function answerStatus(trigger: Trigger, config: RepoConfig, deps: AcceptDeps, reply: Reply): Promise<Acceptance> {
  if (!deps.ledger) return reply('status', replies.stateless('status'), 'status is answered by the workflow runs');
  const repo = `${trigger.owner}/${trigger.repo}`;
  const run = await deps.ledger.latest(repo, trigger.number);
  const spend = await deps.ledger.spendSince?.(repo, monthStart());
  const month = spend ? `\n\n${replies.monthSpend(spend, config.budget?.monthly_usd)}` : '';
  const budget = deps.installationMonthlyUsd;
  const owner = budget !== undefined ? await deps.ledger.ownerSpendSince?.(trigger.owner, monthStart()) : undefined;
  const installation = owner && budget !== undefined ? `\n${replies.installationMonthSpend(trigger.owner, owner, budget)}` : '';
  return reply('status', replies.status(run, trigger.number, config.trigger) + month + installation, 'status answered', run?.id);
}

async function answerCancel(trigger: Trigger, deps: AcceptDeps, reply: Reply): Promise<Acceptance> {
  const { ledger, cancel, github } = deps;
  if (!ledger || !cancel) return reply('cancelled', replies.stateless('cancel'), 'cancel the workflow run instead');
  const run = await ledger.active(`${trigger.owner}/${trigger.repo}`, trigger.number);
  if (!run) return reply('cancelled', replies.nothingToCancel(trigger.number), 'nothing to cancel');
  if ((await cancel(run.id)) !== 'aborted') {
    // Not running anywhere we can reach: close it here so the lease is released.
    await ledger.update(run.id, { status: 'done', verdict: 'cancelled' });
    if (run.commentId !== undefined) {
      const reason = `cancelled by @${trigger.commenter} before it started`;
      await github.updateComment(
        run.commentId,
        renderStatusComment({ runId: run.id, phase: 'cancelled', requester: trigger.commenter, mode: 'fix', verdict: 'cancelled', reason }),
      );
    }
  }
  await github.addReaction(reactionTargetOf(trigger), '+1');
  return { outcome: 'cancelled', why: `run ${run.id} cancelled`, trigger, runId: run.id };
}

async function startRun(trigger: Trigger, config: RepoConfig, deps: AcceptDeps, reply: Reply, react: boolean): Promise<Acceptance> {
  const { github, ledger } = deps;
  // Best effort: an acknowledgement that fails does not stop the work.
  if (react) await github.addReaction(reactionTargetOf(trigger), 'eyes').catch(() => undefined);
  const over = await overBudget(trigger, config, ledger, deps.installationMonthlyUsd);
  if (over) return reply('refused', over.text, over.why);
  const runId = deps.newRunId();
  const mode: RunMode = trigger.target === 'pr' ? 'follow-up' : trigger.kind === 'plan' ? 'plan' : 'fix';
  const repo = `${trigger.owner}/${trigger.repo}`;
  if (ledger) {
    const lease = await ledger.tryCreate({ id: runId, repo, issue: trigger.number, kind: mode });
    if (!lease.ok)
      return reply(
        'already-running',
        replies.alreadyRunning(trigger.number, lease.active),
        `a run for #${trigger.number} is already ${lease.active.status}`,
        lease.active.id,
      );
  }
  try {
    const status = await github.createComment(
      trigger.number,
      renderStatusComment({
        runId,
        phase: 'queued',
        requester: trigger.commenter || 'proofpr',
        mode,
        maxTurns: config.max_turns,
        budgetUsd: config.max_cost_usd,
      }),
    );
    await ledger?.setComment(runId, status.id, status.url);
    return {
      outcome: 'accepted',
      trigger,
      run: { runId, mode, trigger, config, statusCommentId: status.id, statusCommentUrl: status.url },
    };
  } catch (e) {
    // Nothing was started: release the issue's lease so the next request can run.
    await ledger?.update(runId, { status: 'done', verdict: 'error' });
    throw e;
  }
}

/** The first instant of this calendar month (UTC), ISO: the budget's period. */
export function monthStart(now: Date = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
}

/**
 * `budget.monthly_usd` reached by this month's runs of the repository, or the App's per-installation budget
 * (PROOFPR_INSTALLATION_MONTHLY_USD) by this month's runs of every repository of its owner (the App's run
 * store keeps their costs): the refusal, naming which budget.
 */
export async function overBudget(
  trigger: Pick<Trigger, 'owner' | 'repo'>,
  config: Pick<RepoConfig, 'budget'>,
  ledger: Pick<RunLedger, 'spendSince' | 'ownerSpendSince'> | undefined,
  installationMonthlyUsd?: number,
): Promise<{ text: string; why: string } | undefined> {
  const budget = config.budget?.monthly_usd;
  if (budget !== undefined && ledger?.spendSince) {
    const spend = await ledger.spendSince(`${trigger.owner}/${trigger.repo}`, monthStart());
    if (spend.costUsd >= budget)
      return {
        text: replies.overBudget(spend, budget),
        why: `monthly budget $${budget} reached ($${spend.costUsd.toFixed(2)} spent this month)`,
      };
  }
  if (installationMonthlyUsd === undefined || !ledger?.ownerSpendSince) return undefined;
  const spend = await ledger.ownerSpendSince(trigger.owner, monthStart());
  if (spend.costUsd < installationMonthlyUsd) return undefined;
  return {
    text: replies.overInstallationBudget(trigger.owner, spend, installationMonthlyUsd),
    why: `installation monthly budget $${installationMonthlyUsd} reached ($${spend.costUsd.toFixed(2)} spent this month across ${trigger.owner}'s repositories)`,
  };
}
