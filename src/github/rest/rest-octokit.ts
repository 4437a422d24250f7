/**
 * The Octokit surface createGitHubPort needs: the REST endpoint methods, pagination, raw requests,
 * GraphQL (review threads) and auth. Probot's installation Octokit and @octokit/rest both have it.
 */
import type { Octokit } from '@octokit/rest';

export type RestOctokit = Pick<Octokit, 'rest' | 'paginate' | 'request' | 'auth' | 'graphql'>;

/** What every method group is built from: the client, the repository and its web root. */
export interface PortContext {
  octokit: RestOctokit;
  owner: string;
  repo: string;
  /** https://github.com, or the GitHub Enterprise host; no trailing slash. */
  webUrl: string;
  /** Path of the config file in the repository. */
  configPath: string;
}

export function repoParams(ctx: PortContext): { owner: string; repo: string } {
  return { owner: ctx.owner, repo: ctx.repo };
}

export function httpStatus(e: unknown): number | undefined {
  const s = (e as { status?: unknown } | null)?.status;
  return typeof s === 'number' ? s : undefined;
}

/** The call's result, or undefined when GitHub answers one of `statuses` (default 404). */
export async function unlessStatus<T>(p: Promise<T>, statuses: number[] = [404]): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    const s = httpStatus(e);
    if (s !== undefined && statuses.includes(s)) return undefined;
    throw e;
  }
}
