/**
 * The end-to-end tests' shared fixtures: an issue run of a scripted model through runTask on a committed
 * temp repository (test/kit/e2e-repo.ts, re-exported here), and the demo repository (examples/demo/repo)
 * with a run there (runScripted).
 */
import { join, resolve } from 'node:path';
import { parseRepoConfig, type RepoConfig } from '../../src/config/repo-config.js';
import { createScriptedModel, type ScriptedModel, type ScriptFn, type ScriptStep } from '../../src/model/scripted.js';
import { runTask } from '../../src/run/run-task.js';
import type { RunTaskInput, RunTaskResult } from '../../src/run/run-task-types.js';
import type { RunEvent } from '../../src/agent/events.js';
import { tempRepo, type TempRepo } from '../kit/e2e-repo.js';

export { commitAll, git, tempRepo, writeFiles, type Files, type RepoOptions, type TempRepo } from '../kit/e2e-repo.js';

export const DEMO_REPO = resolve('examples/demo/repo');

/** A fresh copy of the demo repository, committed, in a temp folder. */
export function fixtureRepo(): TempRepo {
  return tempRepo({ copyOf: DEMO_REPO });
}

export function demoConfig(extra = ''): RepoConfig {
  return parseRepoConfig(`test:\n  command: node --test\npermissions:\n  allow: ["Bash(node --test:*)"]\n${extra}`);
}

/** An issue run: what runTask needs besides the repository and the test defaults. */
export interface IssueRun extends Partial<Omit<RunTaskInput, 'repoDir' | 'task' | 'model' | 'config' | 'branch'>> {
  issue: { number: number; title: string; body: string };
  branch: string;
  config: RepoConfig;
  script: ScriptStep[] | ScriptFn;
}

let runs = 0;

/** Runs the scripted model on the issue in `repo` through runTask: fix mode, the run and worktree folders in repo.work. */
export async function runIssue(
  repo: TempRepo,
  { issue, script, ...input }: IssueRun,
): Promise<{ res: RunTaskResult; model: ScriptedModel }> {
  const model = createScriptedModel(script);
  const res = await runTask({
    repoDir: repo.dir,
    task: { kind: 'issue', issue: issue.number, title: issue.title, body: issue.body },
    model,
    modelId: 'claude-sonnet-5-5',
    mode: 'fix',
    // With the time, a run id no concurrent case of the file shares.
    runId: `t${Date.now()}-${++runs}`,
    runDir: join(repo.work, 'run'),
    worktreesDir: join(repo.work, 'worktrees'),
    ...input,
  });
  return { res, model };
}

/** The demo repository's issue. */
export const MEDIAN_ISSUE = { number: 7, title: 'median() is wrong', body: 'median([10, 9, 2]) returns 2, expected 9' };

/** Plays `steps` on a fresh demo repository (the median issue); `prepare` may change the repository and add runTask input. */
export async function runScripted(
  steps: ScriptStep[],
  opts: { config?: RepoConfig; mode?: 'fix' | 'plan'; prepare?: (repo: string) => Partial<RunTaskInput> } = {},
): Promise<{ res: RunTaskResult; events: RunEvent[]; repo: string; model: ScriptedModel }> {
  const repo = fixtureRepo();
  const extra = opts.prepare?.(repo.dir) ?? {};
  const events: RunEvent[] = [];
  const { res, model } = await runIssue(repo, {
    issue: MEDIAN_ISSUE,
    branch: 'proofpr/7-median',
    config: opts.config ?? demoConfig(),
    script: steps,
    mode: opts.mode ?? 'fix',
    onEvent: (e) => events.push(e),
    ...extra,
  });
  return { res, events, repo: repo.dir, model };
}
