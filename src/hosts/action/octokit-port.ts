/**
 * GitHubPort over @octokit/rest for one repository, with the token the host was given (the Action's
 * `github_token`, or GITHUB_TOKEN for the CLI). Retries and rate limits are the Octokit plugins' job.
 * Also lists open pull requests (for sweeps, which reuse their own PR).
 */
import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { parse as parseYaml } from 'yaml';
import type { GitHubPort, IssueComment, PullRequestInfo } from '../../usecases/ports.js';
import { logger } from '../../log.js';
import { reactionEndpoint } from '../../github/reaction-endpoint.js';

const log = logger('octokit-port');

export interface OctokitPortOptions {
  token: string;
  owner: string;
  repo: string;
  /** REST API root (GITHUB_API_URL); default the public API. */
  baseUrl?: string;
  /** Web and git root (GITHUB_SERVER_URL); default https://github.com. */
  serverUrl?: string;
  configPath?: string;
}

/** A GitHubPort that can also list the repository's open pull requests (same-repository heads only). */
export interface ListingGitHubPort extends GitHubPort {
  listOpenPullRequests(): Promise<PullRequestInfo[]>;
}

const RetryingOctokit = Octokit.plugin(retry, throttling);

interface RawPull {
  number: number;
  html_url: string;
  state: string;
  draft?: boolean | undefined;
  head: { ref: string; sha: string; repo?: { full_name: string } | null };
  base: { ref: string };
}

function pullInfo(p: RawPull): PullRequestInfo {
  const headRepo = p.head.repo === undefined ? {} : { headRepo: p.head.repo?.full_name ?? '' };
  return { number: p.number, url: p.html_url, headRef: p.head.ref, baseRef: p.base.ref, headSha: p.head.sha, ...headRepo, draft: p.draft === true, state: p.state };
}

function status(e: unknown): number | undefined {
  return typeof e === 'object' && e !== null && 'status' in e && typeof (e as { status: unknown }).status === 'number' ? (e as { status: number }).status : undefined;
}

async function orUndefined<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (status(e) === 404) return undefined;
    throw e;
  }
}

export function createOctokitPort(opts: OctokitPortOptions): ListingGitHubPort {
  const { owner, repo } = opts;
  const server = (opts.serverUrl ?? 'https://github.com').replace(/\/+$/, '');
  const configPath = opts.configPath ?? '.github/proofpr.yml';
  const octokit = new RetryingOctokit({
    auth: opts.token,
    ...(opts.baseUrl ? { baseUrl: opts.baseUrl.replace(/\/+$/, '') } : {}),
    userAgent: 'proofpr',
    // Failed requests (404s included) surface as thrown errors; the request log stays at debug.
    log: { debug: () => undefined, info: () => undefined, warn: (m: string) => log.warn(m), error: (m: string) => log.debug(m) },
    throttle: {
      onRateLimit: (after: number, o: { method: string; url: string }, _k: unknown, retryCount: number) => {
        log.warn({ after, url: o.url }, 'rate limited');
        return retryCount < 2;
      },
      onSecondaryRateLimit: (after: number, o: { method: string; url: string }, _k: unknown, retryCount: number) => {
        log.warn({ after, url: o.url }, 'secondary rate limit');
        return retryCount < 1;
      },
    },
  });
  const r = { owner, repo };
  const sameRepo = (p: RawPull) => !p.head.repo || p.head.repo.full_name.toLowerCase() === `${owner}/${repo}`.toLowerCase();

  return {
    owner,
    repo,
    async addReaction(target, content) {
      const ep = reactionEndpoint(target);
      await octokit.request(ep.route, { ...r, ...ep.params, content });
    },
    async createComment(issue, body) {
      const { data } = await octokit.issues.createComment({ ...r, issue_number: issue, body });
      return { id: data.id, url: data.html_url };
    },
    async updateComment(commentId, body) {
      await octokit.issues.updateComment({ ...r, comment_id: commentId, body });
    },
    async listComments(issue) {
      const all = await octokit.paginate(octokit.issues.listComments, { ...r, issue_number: issue, per_page: 100 });
      return all.map(
        (c): IssueComment => ({ id: c.id, body: c.body ?? '', user: c.user?.login ?? 'ghost', ...(c.user?.type ? { userType: c.user.type } : {}), createdAt: c.created_at, updatedAt: c.updated_at }),
      );
    },
    async permission(user) {
      const res = await orUndefined(octokit.repos.getCollaboratorPermissionLevel({ ...r, username: user }));
      if (!res) return { permission: 'none' };
      const roleName = (res.data as { role_name?: string }).role_name;
      return { permission: res.data.permission, ...(roleName ? { roleName } : {}) };
    },
    async getPullRequest(number) {
      const res = await orUndefined(octokit.pulls.get({ ...r, pull_number: number }));
      return res ? pullInfo(res.data as RawPull) : undefined;
    },
    async findPullRequestByHead(branch) {
      const { data } = await octokit.pulls.list({ ...r, head: `${owner}:${branch}`, state: 'all', per_page: 10 });
      const pulls = (data as RawPull[]).filter((p) => p.head.ref === branch && sameRepo(p));
      const pick = pulls.find((p) => p.state === 'open') ?? pulls[0];
      return pick ? pullInfo(pick) : undefined;
    },
    async createPullRequest(pr) {
      const { data } = await octokit.pulls.create({ ...r, ...pr });
      return pullInfo(data as RawPull);
    },
    async updatePullRequest(number, patch) {
      await octokit.pulls.update({ ...r, pull_number: number, ...patch });
    },
    async addLabels(issue, labels) {
      if (labels.length > 0) await octokit.issues.addLabels({ ...r, issue_number: issue, labels });
    },
    async createCheckRun(run) {
      try {
        await octokit.checks.create({
          ...r,
          head_sha: run.headSha,
          name: run.name,
          status: 'completed',
          conclusion: run.conclusion,
          output: { title: run.title, summary: run.summary },
          ...(run.detailsUrl ? { details_url: run.detailsUrl } : {}),
        });
      } catch (e) {
        // A workflow token without `checks: write` cannot create check runs; the PR body carries the evidence.
        if (status(e) !== 403) throw e;
        log.warn('check run not created: the token lacks `checks: write`');
      }
    },
    async getBranchSha(branch) {
      const res = await orUndefined(octokit.git.getRef({ ...r, ref: `heads/${branch}` }));
      return res?.data.object.sha;
    },
    async getDefaultBranch() {
      const { data } = await octokit.repos.get(r);
      return data.default_branch;
    },
    async readConfig(ref) {
      const res = await orUndefined(octokit.repos.getContent({ ...r, path: configPath, ...(ref ? { ref } : {}) }));
      const data = res?.data as { content?: string; encoding?: string } | undefined;
      if (!data?.content) return null;
      const parsed: unknown = parseYaml(Buffer.from(data.content, (data.encoding as BufferEncoding | undefined) ?? 'base64').toString('utf8'));
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    },
    async gitAccess() {
      return { url: `${server}/${owner}/${repo}.git`, token: opts.token };
    },
    htmlUrl(number) {
      return `${server}/${owner}/${repo}/issues/${number}`;
    },
    branchUrl(branch) {
      return `${server}/${owner}/${repo}/tree/${branch}`;
    },
    async listOpenPullRequests() {
      const all = await octokit.paginate(octokit.pulls.list, { ...r, state: 'open', per_page: 100 });
      return (all as RawPull[]).filter(sameRepo).map(pullInfo);
    },
  };
}
