/** PullsPort over REST. Only PRs whose head is a branch of this repository count: never a fork's. */
import type { PullRequestInfo, PullsPort } from '../port.js';
import { repoParams, unlessStatus, type PortContext } from './rest-octokit.js';

interface RawPull {
  number: number;
  title?: string;
  html_url: string;
  state: string;
  draft?: boolean | null | undefined;
  head: { ref: string; sha: string; repo?: { full_name: string } | null };
  base: { ref: string };
  user?: { login: string; type?: string } | null;
}

export function toPullRequestInfo(p: RawPull): PullRequestInfo {
  const info: PullRequestInfo = {
    number: p.number,
    url: p.html_url,
    headRef: p.head.ref,
    baseRef: p.base.ref,
    headSha: p.head.sha,
    draft: p.draft === true,
    state: p.state,
  };
  // null: the head repository was deleted; absent: the API did not say.
  if (p.head.repo !== undefined) info.headRepo = p.head.repo?.full_name ?? '';
  if (typeof p.title === 'string') info.title = p.title;
  if (p.user?.login) info.author = { login: p.user.login, ...(p.user.type ? { type: p.user.type } : {}) };
  return info;
}

const READY_FOR_REVIEW =
  'mutation($id: ID!) { markPullRequestReadyForReview(input: { pullRequestId: $id }) { pullRequest { number isDraft } } }';

export function pullMethods(ctx: PortContext): PullsPort {
  const { octokit } = ctx;
  const r = repoParams(ctx);
  const full = `${ctx.owner}/${ctx.repo}`.toLowerCase();
  // A head repository GitHub no longer knows (deleted fork) is not ours either; a missing `repo` field is.
  const sameRepo = (p: RawPull): boolean => p.head.repo === undefined || p.head.repo?.full_name.toLowerCase() === full;
  return {
    async getPullRequest(number) {
      const res = await unlessStatus(octokit.rest.pulls.get({ ...r, pull_number: number }));
      return res ? toPullRequestInfo(res.data) : undefined;
    },
    async findPullRequestByHead(branch) {
      const { data } = await octokit.rest.pulls.list({ ...r, head: `${ctx.owner}:${branch}`, state: 'all', per_page: 10 });
      const pulls = (data as RawPull[]).filter((p) => p.head.ref === branch && sameRepo(p));
      const pick = pulls.find((p) => p.state === 'open') ?? pulls[0];
      return pick ? toPullRequestInfo(pick) : undefined;
    },
    async createPullRequest(pr) {
      const { data } = await octokit.rest.pulls.create({
        ...r,
        title: pr.title,
        body: pr.body,
        head: pr.head,
        base: pr.base,
        draft: pr.draft,
      });
      return toPullRequestInfo(data);
    },
    async updatePullRequest(number, patch) {
      await octokit.rest.pulls.update({ ...r, pull_number: number, ...patch });
    },
    async markReadyForReview(number) {
      // REST cannot undraft a PR; GraphQL needs its node id.
      const { data } = await octokit.rest.pulls.get({ ...r, pull_number: number });
      await octokit.graphql(READY_FOR_REVIEW, { id: data.node_id });
    },
    async listOpenPullRequests(opts = {}) {
      const base = opts.base !== undefined ? { base: opts.base } : {};
      const all = await octokit.paginate(octokit.rest.pulls.list, { ...r, state: 'open', per_page: 100, ...base });
      return (all as RawPull[]).filter((p) => sameRepo(p) && (opts.base === undefined || p.base.ref === opts.base)).map(toPullRequestInfo);
    },
  };
}
