/**
 * A GitHub target for the CLI (`--github-repo OWNER/NAME`): the token-based GitHubPort, with the token
 * from GITHUB_TOKEN, the REST API from GITHUB_API_URL and the web/git root from GITHUB_SERVER_URL.
 */
import { createGitHubPort } from '../../github/github-port.js';
import type { GitHubPort } from '../../github/port.js';
import { createTokenOctokit } from '../../github/token-octokit.js';
import { UsageError } from './usage-error.js';

export interface GitHubTarget {
  owner: string;
  repo: string;
  token: string;
  /** GITHUB_API_URL, when set (default: the public API). */
  apiUrl?: string;
  port: GitHubPort;
}

/** Parse OWNER/NAME and read the GitHub env; usage errors name the flag or the variable. */
export function githubTarget(target: string, env: NodeJS.ProcessEnv, flag = '--github-repo'): GitHubTarget {
  const [owner, repo, ...rest] = target.split('/');
  if (!owner || !repo || rest.length > 0) throw new UsageError(`${flag} ${target}: expected OWNER/NAME`);
  const token = env.GITHUB_TOKEN;
  if (!token) throw new UsageError('GITHUB_TOKEN is not set: a GitHub target needs a token with contents: write and pull-requests: write');
  const apiUrl = env.GITHUB_API_URL || undefined;
  const octokit = createTokenOctokit(apiUrl ? { token, baseUrl: apiUrl } : { token });
  const port = createGitHubPort(octokit, env.GITHUB_SERVER_URL ? { owner, repo, webUrl: env.GITHUB_SERVER_URL } : { owner, repo });
  return { owner, repo, token, ...(apiUrl ? { apiUrl } : {}), port };
}
