/** What a recording fake of GitHub's createPullRequest answers. */
import type { PullRequestInfo } from '../../src/github/port.js';

/** The open pull request `number` of acme/demo on example.test, with the head, base and draft asked for. */
export function openedPull(pr: { head: string; base: string; draft: boolean }, number: number): PullRequestInfo {
  return {
    number,
    url: `https://example.test/acme/demo/pull/${number}`,
    headRef: pr.head,
    baseRef: pr.base,
    draft: pr.draft,
    state: 'open',
  };
}
