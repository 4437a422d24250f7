/**
 * A `push` webhook that moved a branch: proofpr's own PRs onto it are queued for a base update when the
 * branch's config says `ci.auto_update: true` (usecases/accept-base-push.ts). The job opens its status
 * comment only when the base conflicts; nothing is written here.
 */
import type { Context } from 'probot';
import { parseBranchPush } from '../../github/branch-push.js';
import { createGitHubPort } from '../../github/github-port.js';
import { loadRepoConfig } from '../../github/repo-config.js';
import { acceptBasePush } from '../../usecases/accept-base-push.js';
import type { IntakeDeps } from './intake.js';

/** The public App's bot login, when GitHub did not say who this App is. */
const DEFAULT_BOT_LOGIN = 'proofpr[bot]';

export async function onBasePush(
  context: Context<'push'>,
  deps: IntakeDeps & { webUrl: string; botLogin(): Promise<string | undefined> },
): Promise<void> {
  const push = parseBranchPush(context.payload, context.id);
  if (!push) return;
  const github = createGitHubPort(context.octokit, { owner: push.owner, repo: push.repo, webUrl: deps.webUrl });
  const out = await acceptBasePush(push, {
    github,
    loadConfig: (ref) => loadRepoConfig(github, ref),
    ledger: deps.runs,
    botLogin: async () => (await deps.botLogin().catch(() => undefined)) ?? DEFAULT_BOT_LOGIN,
    newRunId: deps.newRunId,
    enqueue: async ({ runId, trigger, config }) => {
      // No status comment yet (0): the job posts one when the base conflicts.
      await deps.queue.enqueue(
        { runId, data: { mode: 'follow-up', trigger, config, statusCommentId: 0 } },
        { dedupeKey: `${trigger.owner}/${trigger.repo}#${trigger.number}:${runId}` },
      );
    },
  });
  if (out.queued.length > 0 || out.skipped.length > 0)
    context.log.info(
      { delivery: context.id, repo: `${push.owner}/${push.repo}`, branch: push.branch, sha: push.sha, ...out },
      'base moved',
    );
}
