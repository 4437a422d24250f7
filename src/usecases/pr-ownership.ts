/**
 * Whose pull request is this? proofpr follows up (runs, pushes, rewrites the body) only on its own: the
 * head repository is the base repository AND proofpr created the branch, as recorded in its own state
 * (the branch ledger: the run store) when it first pushed it, or, when the ledger has no record (a fresh
 * store, a PR the Action opened), as GitHub itself tells: a `proofpr/` branch of this repository whose PR
 * was opened by the App's bot user. A branch name is never evidence: anyone can
 * name a fork's branch `proofpr/7-…`. A fork PR gets one reply and nothing else: proofpr does not push
 * to forks or run their code.
 */
import type { GitHubPort, PullRequestInfo } from '../github/port.js';
import { BRANCH_PREFIX } from '../github/trigger.js';

type Awaitable<T> = T | Promise<T>;

/** The branches proofpr created, per repository ("owner/name"), written when it first pushes one. */
export interface BranchLedger {
  recordBranch(repo: string, branch: string, runId: string): Awaitable<void>;
  ownsBranch(repo: string, branch: string): Awaitable<boolean>;
}

/** GitHub's own facts, asked only when the ledger has no record: the App's bot login and who opened the PR. */
export interface OwnershipFacts {
  botLogin: string;
  author(): Promise<{ login: string; type?: string } | undefined>;
}

export type PrOwnership = { kind: 'own'; byFacts?: true } | { kind: 'fork'; headRepo: string } | { kind: 'not-ours'; why: string };

export const FORK_REPLY =
  'proofpr does not work on pull requests from forks: it does not push to forks or run their code. ' +
  'A maintainer can push the change to a branch of this repository and ask there, or open an issue and comment `/agent fix` on it.';

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * `ledger` absent means the host keeps no state (the Action): then a same-repository `proofpr/` branch
 * counts as its own, which only someone with write access to the repository could have pushed.
 */
export async function prOwnership(
  pr: Pick<PullRequestInfo, 'headRef' | 'headRepo'>,
  repoFullName: string,
  ledger?: BranchLedger,
  facts?: OwnershipFacts,
): Promise<PrOwnership> {
  if (pr.headRepo === undefined || !same(pr.headRepo, repoFullName))
    return { kind: 'fork', headRepo: pr.headRepo || '(unknown or deleted repository)' };
  if (!pr.headRef.startsWith(BRANCH_PREFIX)) return { kind: 'not-ours', why: `branch ${pr.headRef} was not created by proofpr` };
  if (!ledger || (await ledger.ownsBranch(repoFullName, pr.headRef))) return { kind: 'own' };
  if (!facts) return { kind: 'not-ours', why: `proofpr has no record of creating branch ${pr.headRef}` };
  const author = await facts.author();
  if (author && same(author.login, facts.botLogin) && author.type === 'Bot') return { kind: 'own', byFacts: true };
  if (!author)
    return {
      kind: 'not-ours',
      why: `proofpr has no record of creating branch ${pr.headRef}, and GitHub did not say who opened its pull request`,
    };
  return { kind: 'not-ours', why: `the pull request on branch ${pr.headRef} was opened by @${author.login}, not by ${facts.botLogin}` };
}

/** The PR facts ownership needs: from the event when it carried them, else one API call. */
export async function pullRequestFacts(
  github: GitHubPort,
  t: { number: number; headRef?: string; baseRef?: string; headRepo?: string },
): Promise<Pick<PullRequestInfo, 'headRef' | 'baseRef' | 'headRepo'> | undefined> {
  if (t.headRef && t.baseRef && t.headRepo !== undefined) return { headRef: t.headRef, baseRef: t.baseRef, headRepo: t.headRepo };
  const pr = await github.getPullRequest(t.number);
  if (!pr) return undefined;
  return { headRef: pr.headRef, baseRef: pr.baseRef, ...(pr.headRepo !== undefined ? { headRepo: pr.headRepo } : {}) };
}
