/**
 * GitHubPort on an installation-authenticated Octokit (Probot's), bound to one repository.
 * Works against github.com and GitHub Enterprise alike: the REST base is the Octokit's; web and git URLs
 * come from `webUrl` (https://github.com, or `${GHE_PROTOCOL}://${GHE_HOST}`).
 * Also lists open pull requests (for sweeps, which reuse their own PR).
 */
import type { ProbotOctokit } from 'probot';
import { reactionEndpoint } from './reaction-endpoint.js';
import type { CheckConclusion, GitHubPort, IssueComment, PullRequestInfo } from '../usecases/ports.js';

type Octokit = InstanceType<typeof ProbotOctokit>;

export const CONFIG_PATH = '.github/proofpr.yml';

interface PullLike {
  number: number;
  html_url: string;
  head: { ref: string; sha: string; repo?: { full_name: string } | null };
  base: { ref: string };
  draft?: boolean;
  state: string;
}

const toPr = (p: PullLike): PullRequestInfo => ({
  number: p.number,
  url: p.html_url,
  headRef: p.head.ref,
  headSha: p.head.sha,
  ...(p.head.repo !== undefined ? { headRepo: p.head.repo?.full_name ?? '' } : {}),
  baseRef: p.base.ref,
  ...(p.draft !== undefined ? { draft: p.draft } : {}),
  state: p.state,
});

const status = (e: unknown): number | undefined => (e as { status?: number }).status;

/** A GitHubPort that can also list the repository's open pull requests (same-repository heads only). */
export type ListingGitHubPort = GitHubPort & { listOpenPullRequests(): Promise<PullRequestInfo[]> };

export function createOctokitPort(octokit: Octokit, repoRef: { owner: string; repo: string; webUrl: string }): ListingGitHubPort {
  const { owner, repo } = repoRef;
  const web = repoRef.webUrl.replace(/\/+$/, '');
  const r = { owner, repo };
  return {
    owner,
    repo,
    async addReaction(target, content) {
      const ep = reactionEndpoint(target);
      await octokit.request(ep.route, { ...r, ...ep.params, content });
    },
    async createComment(issue, body) {
      const { data } = await octokit.rest.issues.createComment({ ...r, issue_number: issue, body });
      return { id: data.id, url: data.html_url };
    },
    async updateComment(commentId, body) {
      await octokit.rest.issues.updateComment({ ...r, comment_id: commentId, body });
    },
    async listComments(issue): Promise<IssueComment[]> {
      const all = await octokit.paginate(octokit.rest.issues.listComments, { ...r, issue_number: issue, per_page: 100 });
      return all.map((c) => ({
        id: c.id,
        body: c.body ?? '',
        user: c.user?.login ?? 'ghost',
        ...(c.user?.type ? { userType: c.user.type } : {}),
        createdAt: c.created_at,
        updatedAt: c.updated_at,
      }));
    },
    async permission(user) {
      try {
        const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ ...r, username: user });
        return { permission: data.permission, ...(data.role_name ? { roleName: data.role_name } : {}) };
      } catch (e) {
        if (status(e) === 404 || status(e) === 403) return { permission: 'none' };
        throw e;
      }
    },
    async getPullRequest(number) {
      try {
        const { data } = await octokit.rest.pulls.get({ ...r, pull_number: number });
        return toPr(data);
      } catch (e) {
        if (status(e) === 404) return undefined;
        throw e;
      }
    },
    async findPullRequestByHead(branch) {
      const { data } = await octokit.rest.pulls.list({ ...r, head: `${owner}:${branch}`, state: 'all', per_page: 10 });
      const open = data.find((p) => p.state === 'open') ?? data[0];
      return open ? toPr(open) : undefined;
    },
    async createPullRequest(pr) {
      const { data } = await octokit.rest.pulls.create({ ...r, title: pr.title, body: pr.body, head: pr.head, base: pr.base, draft: pr.draft });
      return toPr(data);
    },
    async updatePullRequest(number, patch) {
      await octokit.rest.pulls.update({ ...r, pull_number: number, ...patch });
    },
    async addLabels(issue, labels) {
      await octokit.rest.issues.addLabels({ ...r, issue_number: issue, labels });
    },
    async createCheckRun(run: { headSha: string; name: string; conclusion: CheckConclusion; title: string; summary: string; detailsUrl?: string }) {
      await octokit.rest.checks.create({
        ...r,
        name: run.name,
        head_sha: run.headSha,
        status: 'completed',
        conclusion: run.conclusion,
        ...(run.detailsUrl ? { details_url: run.detailsUrl } : {}),
        output: { title: run.title, summary: run.summary },
      });
    },
    async getBranchSha(branch) {
      try {
        const { data } = await octokit.rest.git.getRef({ ...r, ref: `heads/${branch}` });
        return data.object.sha;
      } catch (e) {
        if (status(e) === 404) return undefined;
        throw e;
      }
    },
    async getDefaultBranch() {
      const { data } = await octokit.rest.repos.get(r);
      return data.default_branch;
    },
    async readConfig(ref) {
      // The same loader as Probot's context.config (YAML, `_extends`, the org's .github repo), with a branch.
      const { config, files } = await octokit.config.get({ ...r, path: CONFIG_PATH, ...(ref ? { branch: ref } : {}) });
      return files.some((f) => f.config !== null) ? (config as Record<string, unknown>) : null;
    },
    async gitAccess() {
      const auth = (await octokit.auth({ type: 'installation' })) as { token?: string };
      if (!auth.token) throw new Error('no installation token: the App must be installed on the repository');
      return { url: `${web}/${owner}/${repo}.git`, token: auth.token };
    },
    async listOpenPullRequests() {
      const all = await octokit.paginate(octokit.rest.pulls.list, { ...r, state: 'open', per_page: 100 });
      const full = `${owner}/${repo}`.toLowerCase();
      return (all as PullLike[]).filter((p) => !p.head.repo || p.head.repo.full_name.toLowerCase() === full).map(toPr);
    },
    htmlUrl: (number) => `${web}/${owner}/${repo}/issues/${number}`,
    branchUrl: (branch) => `${web}/${owner}/${repo}/tree/${branch}`,
  };
}
