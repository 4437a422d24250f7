/**
 * `mode: verify` (CONTRACT §11): on a `pull_request` (or `pull_request_target`) event, `proofpr verify`
 * of that pull request with no model, and the check run `proofpr/verified` on its head sha. The config
 * is the base branch's, read through the API (the checkout holds the PR's own, which must not judge it).
 * No key is read: none is needed, and a fork's workflow has no secrets. A fork's read-only token cannot
 * create the check run (logged, not a failure): the step's exit code carries the verdict then.
 */
import { join } from 'node:path';
import { ActionInputError } from '../../config/action-inputs.js';
import type { RepoConfig } from '../../config/repo-config.js';
import type { GitHubPort } from '../../github/port.js';
import { loadRepoConfig } from '../../github/repo-config.js';
import { newRunId } from '../../usecases/run-id.js';
import { verifyPullRequest } from '../../usecases/verify/verify-change.js';
import type { ActionContext } from './context.js';
import { describeSandbox, type EnableSandboxResult } from './enable-sandbox.js';
import type { ActionResult } from './result.js';

export interface VerifyFlowDeps {
  enableSandbox: (setting: RepoConfig['sandbox']) => Promise<EnableSandboxResult>;
  log: (line: string) => void;
  evidencePath: (absolute: string) => string;
}

/** The pull request the event names: its number, head sha and base branch. */
function pullRequestOf(ctx: ActionContext): { number: number; headSha: string; baseRef: string } {
  if (ctx.eventName !== 'pull_request' && ctx.eventName !== 'pull_request_target')
    throw new ActionInputError(
      'mode',
      `verify runs on pull_request events (this is ${ctx.eventName}): add \`on: pull_request\` to the workflow, or use mode auto/sweep`,
    );
  const pr = ctx.payload.pull_request as { number?: unknown; head?: { sha?: unknown }; base?: { ref?: unknown } } | undefined;
  if (!pr || typeof pr.number !== 'number' || typeof pr.head?.sha !== 'string' || typeof pr.base?.ref !== 'string')
    throw new ActionInputError('GITHUB_EVENT_PATH', 'the pull_request event names no pull request (number, head.sha, base.ref)');
  return { number: pr.number, headSha: pr.head.sha, baseRef: pr.base.ref };
}

export async function verifyFlow(ctx: ActionContext, github: GitHubPort, deps: VerifyFlowDeps): Promise<ActionResult> {
  const pr = pullRequestOf(ctx);
  const loaded = await loadRepoConfig(github, pr.baseRef);
  if (!loaded.ok) throw new ActionInputError('config', `.github/proofpr.yml on ${pr.baseRef} is invalid: ${loaded.problems.join('; ')}`);
  const config = loaded.config;
  const box = await deps.enableSandbox(config.sandbox);
  for (const line of describeSandbox(box)) deps.log(line);
  deps.log(`proofpr verify: pull request #${pr.number} at ${pr.headSha.slice(0, 12)} (no model)`);
  const runId = newRunId();
  const runDir = join(ctx.home, 'runs', runId);
  const out = await verifyPullRequest(
    github,
    { number: pr.number, headSha: pr.headSha, config, post: true },
    { runId, runDir, worktreesDir: join(ctx.home, 'worktrees') },
  );
  const ev = out.result.evidence;
  return {
    exitCode: out.result.exitCode,
    outputs: {
      verdict: ev.verdict,
      branch: out.pull.headRef,
      pr_number: String(pr.number),
      pr_url: github.htmlUrl(pr.number).replace(/\/issues\//, '/pull/'),
      evidence_path: deps.evidencePath(join(runDir, 'evidence.json')),
    },
    summaryMd: out.result.summaryMd,
    message: `verify #${pr.number}: ${ev.verdict} (${ev.reason}); check run proofpr/verified on ${pr.headSha.slice(0, 12)}`,
  };
}
