/**
 * `ci.auto_update` (issue 28): a push that moved a branch → one follow-up job for each of proofpr's own open
 * PRs onto that branch, when the branch's config turns it on. Ownership comes from the ledger or GitHub's
 * facts (pr-ownership.ts): a fork's PR or a `proofpr/` branch someone else opened is never touched, and is
 * not written to either: nobody asked there. The job decides with git whether the base conflicts and opens
 * its status comment only then (base-update.ts); so here nothing is written to GitHub, and a push onto a
 * branch no proofpr PR targets costs one API call (the PR list).
 */
import type { RepoConfig } from '../config/repo-config.js';
import type { BranchPush } from '../github/branch-push.js';
import type { GitHubPort, PullRequestInfo } from '../github/port.js';
import type { LoadedConfig } from '../github/repo-config.js';
import { BRANCH_PREFIX, type Trigger } from '../github/trigger.js';
import { prOwnership } from './pr-ownership.js';
import type { RunLedger } from './ports.js';

export interface BasePushDeps {
  github: GitHubPort;
  /** The repository config at a ref (the moved branch's, as every follow-up reads its base's). */
  loadConfig(ref: string): Promise<LoadedConfig>;
  ledger: RunLedger;
  /** The App's bot login ("<slug>[bot]"): the author of its PRs. */
  botLogin(): Promise<string>;
  newRunId(): string;
  /** Queue the follow-up job (its status comment is opened by the job, when there is work). */
  enqueue(run: { runId: string; trigger: Trigger; config: RepoConfig }): Promise<void>;
}

export interface BasePushOutcome {
  queued: Array<{ number: number; runId: string }>;
  /** proofpr PRs onto the branch that got no job, and why. */
  skipped: Array<{ number: number; why: string }>;
  /** Why nothing was considered at all. */
  why?: string;
}

/** The job's trigger: the PR, asked for by nobody (no commenter, no co-author), at the push's time. */
function autoTrigger(push: BranchPush, pr: PullRequestInfo, repo: string): Trigger {
  return {
    kind: 'fix',
    via: 'base-update',
    target: 'pr',
    owner: push.owner,
    repo: push.repo,
    number: pr.number,
    title: pr.title ?? `PR #${pr.number}`,
    body: '',
    commenter: '',
    commentCreatedAt: push.at,
    instructions: '',
    ...(push.installationId !== undefined ? { installationId: push.installationId } : {}),
    deliveryId: `${push.deliveryId}:${pr.number}`,
    headRef: pr.headRef,
    baseRef: pr.baseRef,
    headRepo: pr.headRepo ?? repo,
  };
}

/** Why proofpr leaves this PR alone, or undefined when it is its own (adopted into the ledger when GitHub's facts said so). */
async function notOwn(pr: PullRequestInfo, repo: string, deps: BasePushDeps): Promise<string | undefined> {
  const owner = await prOwnership(pr, repo, deps.ledger, { botLogin: await deps.botLogin(), author: async () => pr.author });
  if (owner.kind === 'fork') return `a fork (${owner.headRepo})`;
  if (owner.kind === 'not-ours') return owner.why;
  if (owner.byFacts) await deps.ledger.recordBranch(repo, pr.headRef, 'github-facts');
  return undefined;
}

/** One PR: its lease (one run per PR) and its job; the lease is released when the job could not be queued. */
async function queueOne(
  push: BranchPush,
  pr: PullRequestInfo,
  config: RepoConfig,
  deps: BasePushDeps,
): Promise<{ runId: string } | { skip: string }> {
  const repo = `${push.owner}/${push.repo}`;
  const runId = deps.newRunId();
  const lease = await deps.ledger.tryCreate({ id: runId, repo, issue: pr.number, kind: 'follow-up' });
  if (!lease.ok)
    return {
      skip: `run ${lease.active.id} is ${lease.active.status} on it; the next push to ${push.branch} or \`${config.trigger} fix\` updates it`,
    };
  try {
    await deps.enqueue({ runId, trigger: autoTrigger(push, pr, repo), config });
  } catch (e) {
    await deps.ledger.update(runId, { status: 'done', verdict: 'error' });
    throw e;
  }
  return { runId };
}

export async function acceptBasePush(push: BranchPush, deps: BasePushDeps): Promise<BasePushOutcome> {
  const out: BasePushOutcome = { queued: [], skipped: [] };
  // proofpr opens its PRs onto the repository's branches, never onto its own.
  if (push.branch.startsWith(BRANCH_PREFIX)) return { ...out, why: `${push.branch} is a proofpr branch` };
  const prs = (await deps.github.listOpenPullRequests({ base: push.branch })).filter(
    (p) => p.baseRef === push.branch && p.headRef.startsWith(BRANCH_PREFIX),
  );
  if (prs.length === 0) return { ...out, why: `no proofpr pull request is open onto ${push.branch}` };
  if (!(await deps.ledger.recordDelivery(push.deliveryId))) return { ...out, why: `delivery ${push.deliveryId} was handled before` };
  const loaded = await deps.loadConfig(push.branch);
  if (!loaded.ok) return { ...out, why: `.github/proofpr.yml on ${push.branch} is invalid` };
  if (!loaded.config.ci.auto_update) return { ...out, why: `ci.auto_update is off on ${push.branch}` };
  const repo = `${push.owner}/${push.repo}`;
  for (const pr of prs) {
    const why = await notOwn(pr, repo, deps);
    if (why) {
      out.skipped.push({ number: pr.number, why });
      continue;
    }
    const q = await queueOne(push, pr, loaded.config, deps);
    if ('skip' in q) out.skipped.push({ number: pr.number, why: q.skip });
    else out.queued.push({ number: pr.number, runId: q.runId });
  }
  return out;
}
