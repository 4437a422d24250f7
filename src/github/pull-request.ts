/**
 * One PR per branch: a re-run for the same issue updates the PR it opened before instead of opening another.
 */
import type { GitHubPort, PullRequestInfo } from './port.js';

export interface UpsertPullRequest {
  branch: string;
  base: string;
  title: string;
  body: string;
  draft: boolean;
  labels: string[];
}

export async function upsertPullRequest(
  github: Pick<GitHubPort, 'findPullRequestByHead' | 'updatePullRequest' | 'addLabels' | 'createPullRequest'>,
  pr: UpsertPullRequest,
): Promise<PullRequestInfo & { created: boolean }> {
  const existing = await github.findPullRequestByHead(pr.branch);
  if (existing && existing.state === 'open') {
    await github.updatePullRequest(existing.number, { title: pr.title, body: pr.body });
    if (pr.labels.length > 0) await github.addLabels(existing.number, pr.labels);
    return { ...existing, created: false };
  }
  const created = await github.createPullRequest({ title: pr.title, body: pr.body, head: pr.branch, base: pr.base, draft: pr.draft });
  if (pr.labels.length > 0) await github.addLabels(created.number, pr.labels);
  return { ...created, created: true };
}
