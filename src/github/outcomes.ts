/**
 * What became of the pull requests proofpr opened or verified (issue 40, `proofpr outcomes`): merged, closed
 * unmerged, reverted later, open; split by verdict. The number that tells a maintainer whether "verified"
 * can be trusted.
 *
 * Whose PR: one proofpr opened is a `proofpr/` branch of the repository itself (BRANCH_PREFIX), its verdict
 * the headline of the body proofpr wrote (`proofpr: verified`); one proofpr verified is any PR whose head
 * carries the check run `proofpr/verified` (or `proofpr`), its verdict the check's conclusion. Reverted: a
 * commit on the PR's base branch after the merge that says `This reverts commit <the merge commit>` or
 * whose subject is `Revert "<title>"` (git revert's and GitHub's revert button's own words), or a PR
 * that says `Reverts owner/name#N` or is titled `Revert "<title>"`.
 */
import { BRANCH_PREFIX } from './trigger.js';
import { CHECK_NAME, VERIFIED_CHECK_NAME } from './check-run.js';
import type { RestOctokit } from './rest/rest-octokit.js';

export type OutcomeState = 'merged' | 'closed' | 'reverted' | 'open';

export interface PrOutcome {
  number: number;
  title: string;
  url: string;
  /** `opened`: proofpr's own branch; `verified`: someone else's PR with proofpr's check. */
  by: 'opened' | 'verified';
  verdict: string;
  state: OutcomeState;
  createdAt: string;
  /** The revert: a commit sha or `#N`, when reverted. */
  revertedBy?: string;
}

export interface OutcomeRow {
  verdict: string;
  prs: number;
  merged: number;
  closed: number;
  reverted: number;
  open: number;
}

export interface OutcomesOptions {
  octokit: RestOctokit;
  owner: string;
  repo: string;
  /** PRs created at or after this instant. */
  since: Date;
}

interface Pr {
  number: number;
  title: string;
  body?: string | null;
  html_url: string;
  state: string;
  created_at: string;
  merged_at?: string | null;
  merge_commit_sha?: string | null;
  head: { ref: string; sha: string; repo?: { full_name: string } | null };
  base: { ref: string };
}

const VERDICT_IN_BODY = /proofpr: (verified|unverified|aborted|error)\b/;

/** Every PR created since `since`, newest first, paginated until the first older one. */
async function pullsSince(o: OutcomesOptions): Promise<Pr[]> {
  return (await o.octokit.paginate(
    o.octokit.rest.pulls.list,
    { owner: o.owner, repo: o.repo, state: 'all', sort: 'created', direction: 'desc', per_page: 100 },
    (res, done) => {
      const page = res.data as unknown as Pr[];
      if (page.some((p) => new Date(p.created_at) < o.since)) done();
      return page.filter((p) => new Date(p.created_at) >= o.since);
    },
  )) as Pr[];
}

/** proofpr's check on the head: the verdict by its conclusion, undefined when the head has none. */
async function checkVerdict(o: OutcomesOptions, sha: string): Promise<string | undefined> {
  for (const name of [VERIFIED_CHECK_NAME, CHECK_NAME]) {
    const r = await o.octokit.rest.checks.listForRef({ owner: o.owner, repo: o.repo, ref: sha, check_name: name, per_page: 1 });
    const run = r.data.check_runs[0];
    if (!run) continue;
    if (run.status !== 'completed') return 'pending';
    return run.conclusion === 'success' ? 'verified' : run.conclusion === 'cancelled' ? 'aborted' : 'unverified';
  }
  return undefined;
}

/** Whose PR and its verdict; undefined when proofpr neither opened nor verified it. */
async function proofprVerdict(o: OutcomesOptions, p: Pr): Promise<{ by: PrOutcome['by']; verdict: string } | undefined> {
  const own = p.head.ref.startsWith(BRANCH_PREFIX) && p.head.repo?.full_name.toLowerCase() === `${o.owner}/${o.repo}`.toLowerCase();
  const fromBody = own ? VERDICT_IN_BODY.exec(p.body ?? '')?.[1] : undefined;
  if (fromBody) return { by: 'opened', verdict: fromBody };
  const fromCheck = await checkVerdict(o, p.head.sha);
  if (fromCheck) return { by: own ? 'opened' : 'verified', verdict: fromCheck };
  return own ? { by: 'opened', verdict: 'unknown' } : undefined;
}

interface Commit {
  sha: string;
  commit: { message: string };
}

/** The commits on `branch` since `since` (one listing per base branch). */
async function commitsSince(o: OutcomesOptions, branch: string, since: string): Promise<Commit[]> {
  return (await o.octokit.paginate(o.octokit.rest.repos.listCommits, {
    owner: o.owner,
    repo: o.repo,
    sha: branch,
    since,
    per_page: 100,
  })) as unknown as Commit[];
}

/** What reverted a merged PR: a commit on its base branch or another PR, by their own words. */
export function revertOf(p: Pr, repoFullName: string, commits: readonly Commit[], pulls: readonly Pr[]): string | undefined {
  const titles = [p.title, `${p.title} (#${p.number})`].map((t) => `Revert "${t}"`);
  const sha = p.merge_commit_sha ?? undefined;
  for (const c of commits) {
    const msg = c.commit.message;
    const subject = msg.split('\n')[0] ?? '';
    if ((sha && msg.includes(`This reverts commit ${sha}`)) || titles.includes(subject.trim())) return c.sha;
  }
  const ref = new RegExp(`\\bReverts ${repoFullName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}#${p.number}\\b`, 'i');
  const pr = pulls.find((q) => q.number !== p.number && (ref.test(q.body ?? '') || titles.includes(q.title.trim())));
  return pr ? `#${pr.number}` : undefined;
}

/** Each PR proofpr opened or verified since `since`, with its verdict and what became of it. */
export async function prOutcomes(o: OutcomesOptions): Promise<PrOutcome[]> {
  const pulls = await pullsSince(o);
  const ours: Array<{ p: Pr; by: PrOutcome['by']; verdict: string }> = [];
  for (const p of pulls) {
    const v = await proofprVerdict(o, p);
    if (v) ours.push({ p, ...v });
  }
  const commitsByBase = new Map<string, Commit[]>();
  const out: PrOutcome[] = [];
  for (const { p, by, verdict } of ours) {
    let state: OutcomeState = p.merged_at ? 'merged' : p.state === 'open' ? 'open' : 'closed';
    let revertedBy: string | undefined;
    if (p.merged_at) {
      const key = p.base.ref;
      if (!commitsByBase.has(key)) commitsByBase.set(key, await commitsSince(o, key, o.since.toISOString()));
      revertedBy = revertOf(p, `${o.owner}/${o.repo}`, commitsByBase.get(key) ?? [], pulls);
      if (revertedBy) state = 'reverted';
    }
    out.push({
      number: p.number,
      title: p.title,
      url: p.html_url,
      by,
      verdict,
      state,
      createdAt: p.created_at,
      ...(revertedBy ? { revertedBy } : {}),
    });
  }
  return out;
}

/** One row per verdict (verified first), counting each state; `reverted` PRs were merged and are not in `merged`. */
export function outcomeTable(prs: readonly PrOutcome[]): OutcomeRow[] {
  const rows = new Map<string, OutcomeRow>();
  for (const p of prs) {
    const r = rows.get(p.verdict) ?? { verdict: p.verdict, prs: 0, merged: 0, closed: 0, reverted: 0, open: 0 };
    r.prs++;
    r[p.state]++;
    rows.set(p.verdict, r);
  }
  const order = ['verified', 'unverified', 'aborted', 'error', 'pending', 'unknown'];
  const rank = (v: string) => (order.includes(v) ? order.indexOf(v) : order.length);
  return [...rows.values()].sort((a, b) => rank(a.verdict) - rank(b.verdict) || a.verdict.localeCompare(b.verdict));
}
