/**
 * The App's GitHub for a job or a webhook: an installation Octokit from Probot, bound to one repository
 * through the one adapter. `serve` and `worker` both use it.
 */
import type { Probot } from 'probot';
import { createGitHubPort } from '../../github/github-port.js';
import type { GitHubPort } from '../../github/port.js';
import type { Trigger } from '../../github/trigger.js';

export type GitHubFor = (target: Pick<Trigger, 'owner' | 'repo' | 'installationId'>) => Promise<GitHubPort>;

export function githubForApp(probot: Pick<Probot, 'auth'>, webUrl: string): GitHubFor {
  return async (t) => {
    if (t.installationId === undefined) throw new Error(`no installation id for ${t.owner}/${t.repo}: is the App installed there?`);
    const octokit = await probot.auth(t.installationId);
    return createGitHubPort(octokit, { owner: t.owner, repo: t.repo, webUrl });
  };
}
