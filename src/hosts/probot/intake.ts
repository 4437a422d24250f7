/**
 * Webhook → decision, before anything runs: parse once, read the config, recognise the command, drop
 * redeliveries, authorize, then answer status/cancel or take the issue's lease and enqueue the run.
 */
import type { GitHubPort } from '../../github/port.js';
import type { Queue } from '../../jobs/queue.js';
import type { SharedRunStore } from '../../jobs/run-store.js';
import type { FixJob } from '../../jobs/fix-job.js';
import { parseEvent } from '../../github/event.js';
import { toTrigger, BRANCH_PREFIX, type Trigger } from '../../github/trigger.js';
import { loadRepoConfig, invalidConfigComment, type LoadedConfig } from '../../github/repo-config.js';
import { authorize } from '../../github/authorize.js';
import { repoConfigSchema } from '../../config/repo-config.js';
import { renderStatusComment } from '../../github/status-comment.js';
import { reactionTargetOf } from '../../github/reaction-endpoint.js';
import { FORK_REPLY, prOwnership, pullRequestFacts } from '../../usecases/pr-ownership.js';

export type IntakeOutcome = 'ignored' | 'redelivery' | 'invalid-config' | 'unauthorized' | 'status' | 'cancelled' | 'already-running' | 'queued' | 'refused';

export interface IntakeDeps {
  runs: SharedRunStore;
  queue: Queue<FixJob>;
  newRunId(): string;
  /** The App's own login, e.g. "proofpr[bot]". */
  selfLogin?: string;
}

export interface WebhookInput {
  name: string;
  id: string;
  payload: unknown;
}

/** Who may trigger a run when the config cannot say (it is invalid): the schema's default. */
const DEFAULT_AUTHORIZED: readonly string[] = repoConfigSchema.parse({}).authorized;

const fullName = (t: { owner: string; repo: string }): string => `${t.owner}/${t.repo}`;

export async function intake(evt: WebhookInput, github: GitHubPort, deps: IntakeDeps): Promise<{ outcome: IntakeOutcome; runId?: string; trigger?: Trigger }> {
  const facts = parseEvent(evt.name, evt.id, evt.payload, deps.selfLogin ? { selfLogin: deps.selfLogin } : {});
  if (!facts) return { outcome: 'ignored' };
  let configRef: string | undefined;
  if (facts.target === 'pr') {
    const pr = await pullRequestFacts(github, facts);
    if (!pr) return { outcome: 'ignored' };
    facts.headRef = pr.headRef;
    facts.baseRef = pr.baseRef;
    if (pr.headRepo !== undefined) facts.headRepo = pr.headRepo;
    // A same-repository PR on another branch is somebody's own work: not a command for proofpr. A fork's
    // PR goes on, whatever its branch is named, to get its one reply (decide → refuseForeignPr).
    const fork = pr.headRepo === undefined || pr.headRepo.toLowerCase() !== fullName(facts).toLowerCase();
    if (!fork && !pr.headRef.startsWith(BRANCH_PREFIX)) return { outcome: 'ignored' };
    // A follow-up's config comes from the base branch, never from the PR head.
    configRef = facts.baseRef;
  }
  const loaded = await loadRepoConfig(github, configRef);
  const trigger = toTrigger(facts, loaded.ok ? loaded.config : { trigger: loaded.trigger });
  if (!trigger) return { outcome: 'ignored' };
  if (!await deps.runs.recordDelivery(trigger.deliveryId)) return { outcome: 'redelivery', trigger };
  try {
    return await decide(trigger, loaded, github, deps);
  } catch (e) {
    // Nothing was queued: let GitHub's redelivery (or a manual one) try again.
    await deps.runs.forgetDelivery?.(trigger.deliveryId);
    throw e;
  }
}

type Decision = { outcome: IntakeOutcome; runId?: string; trigger?: Trigger };

async function decide(trigger: Trigger, loaded: LoadedConfig, github: GitHubPort, deps: IntakeDeps): Promise<Decision> {
  if (!loaded.ok) {
    // The problems describe the repository's own file: only someone who could trigger a run sees them.
    const auth = await authorize(github, trigger.commenter, DEFAULT_AUTHORIZED);
    if (!auth.ok) return { outcome: 'unauthorized', trigger };
    await github.createComment(trigger.number, invalidConfigComment(loaded.problems));
    return { outcome: 'invalid-config', trigger };
  }
  const config = loaded.config;
  const auth = await authorize(github, trigger.commenter, config.authorized);
  if (!auth.ok) {
    await github.createComment(
      trigger.number,
      `Sorry @${trigger.commenter}, only people with ${config.authorized.join(', ')} access to this repository can ask me to work here, so I did not start.`,
    );
    return { outcome: 'unauthorized', trigger };
  }
  const repo = fullName(trigger);
  if (trigger.target === 'pr') {
    const owner = await prOwnership({ headRef: trigger.headRef ?? '', ...(trigger.headRepo !== undefined ? { headRepo: trigger.headRepo } : {}) }, repo, deps.runs);
    if (owner.kind !== 'own') {
      await github.createComment(trigger.number, owner.kind === 'fork' ? FORK_REPLY : `proofpr follows up only on pull requests it opened: ${owner.why}, so I did not start.`);
      return { outcome: 'refused', trigger };
    }
  }
  const target = reactionTargetOf(trigger);

  if (trigger.kind === 'status') {
    const run = await deps.runs.latest(repo, trigger.number);
    const text = run
      ? `Run \`${run.id}\` is ${run.status}${run.verdict ? ` (${run.verdict})` : ''}${run.commentUrl ? `: ${run.commentUrl}` : ''}${run.prUrl ? `, PR ${run.prUrl}` : ''}.`
      : `No proofpr run for #${trigger.number} yet. Comment \`${config.trigger} fix\` to start one.`;
    await github.createComment(trigger.number, text);
    return { outcome: 'status', trigger, ...(run ? { runId: run.id } : {}) };
  }
  if (trigger.kind === 'cancel') {
    const run = await deps.runs.active(repo, trigger.number);
    if (!run) {
      await github.createComment(trigger.number, `Nothing to cancel: no run is queued or running for #${trigger.number}.`);
      return { outcome: 'cancelled', trigger };
    }
    const res = await deps.queue.cancel(run.id);
    if (res !== 'aborted') {
      // Not running anywhere we can reach: close it here so the lease is released.
      await deps.runs.update(run.id, { status: 'done', verdict: 'cancelled' });
      if (run.commentId !== undefined) {
        await github.updateComment(run.commentId, renderStatusComment({ runId: run.id, phase: 'cancelled', requester: trigger.commenter, mode: 'fix', verdict: 'cancelled', reason: `cancelled by @${trigger.commenter} before it started` }));
      }
    }
    await github.addReaction(target, '+1');
    return { outcome: 'cancelled', trigger, runId: run.id };
  }

  await github.addReaction(target, 'eyes');
  const runId = deps.newRunId();
  const mode: FixJob['mode'] = trigger.target === 'pr' ? 'follow-up' : trigger.kind === 'plan' ? 'plan' : 'fix';
  const lease = await deps.runs.tryCreate({ id: runId, repo, issue: trigger.number, kind: mode });
  if (!lease.ok) {
    const where = lease.active.commentUrl ? ` Progress: ${lease.active.commentUrl}` : '';
    await github.createComment(trigger.number, `A run for #${trigger.number} is already ${lease.active.status} (run \`${lease.active.id}\`).${where}`);
    return { outcome: 'already-running', trigger, runId: lease.active.id };
  }
  try {
    const status = await github.createComment(trigger.number, renderStatusComment({ runId, phase: 'queued', requester: trigger.commenter, mode, maxTurns: config.max_turns, budgetUsd: config.max_cost_usd }));
    await deps.runs.setComment(runId, status.id, status.url);
    await deps.queue.enqueue({ runId, data: { mode, trigger, config, statusCommentId: status.id } }, { dedupeKey: `${repo}#${trigger.number}:${runId}` });
  } catch (e) {
    // Nothing was queued: release the issue's lease so the next request can run.
    await deps.runs.update(runId, { status: 'done', verdict: 'error' });
    throw e;
  }
  return { outcome: 'queued', trigger, runId };
}
