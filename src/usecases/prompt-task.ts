/**
 * A direct task (the Action's `prompt` input, e.g. workflow_dispatch): runTask on the checkout, then the
 * one way out: verified work to its proofpr/prompt-… branch and a PR (lease, labels, evidence.pr, check
 * run); unverified work to refs/proofpr/wip/<run-id>, never to a branch.
 */
import { join } from 'node:path';
import type { RepoConfig } from '../config/repo-config.js';
import type { ModelClient } from '../model/model-client.js';
import type { RunTask, RunTaskResult } from '../run/run-task-types.js';
import { sanitizeText } from '../github/sanitize.js';
import { promptBranch } from './branch-name.js';
import { newRunId } from './run-id.js';
import { publishWork, type PublishDeps, type PublishGitHub, type Published } from './publish-work.js';
import type { GitHubPort } from '../github/port.js';

export interface PromptTaskInput {
  prompt: string;
  config: RepoConfig;
  /** The checkout the task runs on (its HEAD is the base). */
  repoDir: string;
  /** runs/ and worktrees/ live under it. */
  home: string;
  /** The branch the PR targets (the workflow's ref), else the repository's default branch. */
  prBase?: string;
  modelId: string;
  runId?: string;
}

export interface PromptTaskDeps extends PublishDeps {
  github: PublishGitHub & Pick<GitHubPort, 'getDefaultBranch'>;
  model: ModelClient;
  runTask: RunTask;
}

export interface PromptTaskOutcome {
  run: RunTaskResult;
  /** The branch the verified work was pushed to, when it was. */
  branch?: string;
  published: Published;
}

/** The task's title: the prompt's first line, sanitized, at most 100 characters. */
function titleOf(clean: string): string {
  return (clean.split('\n')[0] ?? '').slice(0, 100) || 'proofpr task';
}

export async function runPromptTask(input: PromptTaskInput, deps: PromptTaskDeps): Promise<PromptTaskOutcome> {
  const { github } = deps;
  const { config } = input;
  const runId = input.runId ?? newRunId();
  const branch = promptBranch(input.prompt, runId);
  const clean = sanitizeText(input.prompt);
  const title = titleOf(clean);
  const run = await deps.runTask({
    repoDir: input.repoDir,
    baseRef: 'HEAD',
    branch,
    task: { kind: 'prompt', title, body: clean },
    config,
    model: deps.model,
    modelId: input.modelId,
    mode: 'fix',
    runId,
    runDir: join(input.home, 'runs', runId),
    worktreesDir: join(input.home, 'worktrees'),
    repoFullName: `${github.owner}/${github.repo}`,
  });
  const published = await publishWork(
    {
      runId,
      repoDir: input.repoDir,
      branch,
      result: run,
      lease: { kind: 'remote-tip' },
      pr: {
        kind: 'upsert',
        base: input.prBase ?? (await github.getDefaultBranch()),
        title,
        body: run.summaryMd,
        draft: config.pr.draft,
        labels: config.pr.labels,
      },
      unverified: 'wip-ref',
    },
    deps,
  );
  run.evidence = published.evidence;
  return { run, ...(published.verified ? { branch } : {}), published };
}
