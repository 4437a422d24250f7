/**
 * The one GitHubPort adapter, over any REST Octokit: Probot's installation Octokit (the App, its worker
 * and scheduler) or @octokit/rest with a token and the retry and throttling plugins (the Action, the CLI;
 * see createTokenOctokit). Works against github.com and GitHub Enterprise alike: the REST base is the
 * Octokit's; web and git URLs come from `webUrl`.
 *
 * Each group of methods lives in its own file under rest/ (issues, pulls, checks, repository): a new
 * capability is a new file there, its interface in port.ts, and one spread below.
 */
import type { GitHubPort } from './port.js';
import { checkMethods } from './rest/checks.js';
import { issueMethods } from './rest/issues.js';
import { pullMethods } from './rest/pulls.js';
import { repositoryMethods } from './rest/repository.js';
import { reviewThreadMethods } from './rest/review-threads.js';
import { createCiApi } from './ci-api.js';
import type { PortContext, RestOctokit } from './rest/rest-octokit.js';

export type { RestOctokit } from './rest/rest-octokit.js';

export const CONFIG_PATH = '.github/proofpr.yml';

export interface GitHubPortOptions {
  owner: string;
  repo: string;
  /** Web and git root: https://github.com (default) or `${GHE_PROTOCOL}://${GHE_HOST}`, GITHUB_SERVER_URL. */
  webUrl?: string;
  /** The config file's path in the repository (default .github/proofpr.yml). */
  configPath?: string;
}

export function createGitHubPort(octokit: RestOctokit, opts: GitHubPortOptions): GitHubPort {
  const ctx: PortContext = {
    octokit,
    owner: opts.owner,
    repo: opts.repo,
    webUrl: (opts.webUrl ?? 'https://github.com').replace(/\/+$/, ''),
    configPath: opts.configPath ?? CONFIG_PATH,
  };
  const ci = createCiApi((route, params) => octokit.request(route, params), { owner: opts.owner, repo: opts.repo });
  return {
    ...repositoryMethods(ctx),
    ...issueMethods(ctx),
    ...pullMethods(ctx),
    ...checkMethods(ctx),
    reviews: reviewThreadMethods(ctx),
    ci,
  };
}
