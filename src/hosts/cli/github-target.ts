/**
 * A GitHub target for the CLI (`--github-repo OWNER/NAME`): the token-based GitHubPort, with the token
 * from GITHUB_TOKEN, the REST API from GITHUB_API_URL and the web/git root from GITHUB_SERVER_URL.
 */
import { createOctokitPort, type ListingGitHubPort } from '../action/octokit-port.js';
import { UsageError } from './usage-error.js';

export interface GitHubTarget {
  owner: string;
  repo: string;
  token: string;
  /** GITHUB_API_URL, when set (default: the public API). */
  apiUrl?: string;
  port: ListingGitHubPort;
}

/** Parse OWNER/NAME and read the GitHub env; usage errors name the flag or the variable. */
export function githubTarget(target: string, env: NodeJS.ProcessEnv, flag = '--github-repo'): GitHubTarget {
  const [owner, repo, ...rest] = target.split('/');
  if (!owner || !repo || rest.length > 0) throw new UsageError(`${flag} ${target}: expected OWNER/NAME`);
  const token = env.GITHUB_TOKEN;
  if (!token) throw new UsageError('GITHUB_TOKEN is not set: a GitHub target needs a token with contents: write and pull-requests: write');
  const apiUrl = env.GITHUB_API_URL || undefined;
  const port = createOctokitPort({ token, owner, repo, ...(apiUrl ? { baseUrl: apiUrl } : {}), ...(env.GITHUB_SERVER_URL ? { serverUrl: env.GITHUB_SERVER_URL } : {}) });
  return { owner, repo, token, ...(apiUrl ? { apiUrl } : {}), port };
}
