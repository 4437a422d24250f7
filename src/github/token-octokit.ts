/**
 * @octokit/rest with a token, retries and rate-limit handling (the plugins' job, not ours): the Octokit the
 * Action and the CLI give createGitHubPort.
 */
import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { logger } from '../log.js';
import type { RestOctokit } from './rest/rest-octokit.js';

const log = logger('github-port');

const RetryingOctokit = Octokit.plugin(retry, throttling);

export interface TokenOctokitOptions {
  token: string;
  /** REST API root (GITHUB_API_URL); default the public API. */
  baseUrl?: string;
}

export function createTokenOctokit(opts: TokenOctokitOptions): RestOctokit {
  return new RetryingOctokit({
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
}
