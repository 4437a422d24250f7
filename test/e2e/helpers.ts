import { cpSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseRepoConfig, type RepoConfig } from '../../src/config/repo-config.js';
import { createScriptedModel, type ScriptStep } from '../../src/model/scripted.js';
import { runTask } from '../../src/run/run-task.js';
import type { RunTaskInput, RunTaskResult } from '../../src/run/run-task-types.js';
import type { RunEvent } from '../../src/agent/events.js';
import { tempDir } from '../kit/temp.js';

export const DEMO_REPO = resolve('examples/demo/repo');

export function git(cwd: string, args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  });
}

/** A fresh copy of the demo repository, committed, in a temp folder. */
export function fixtureRepo(): { dir: string; work: string } {
  const work = tempDir('proofpr-e2e-');
  const dir = join(work, 'repo');
  cpSync(DEMO_REPO, dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'initial']);
  return { dir, work };
}

export function demoConfig(extra = ''): RepoConfig {
  return parseRepoConfig(`test:\n  command: node --test\npermissions:\n  allow: ["Bash(node --test:*)"]\n${extra}`);
}

export async function runScripted(
  steps: ScriptStep[],
  opts: { config?: RepoConfig; mode?: 'fix' | 'plan'; prepare?: (repo: string) => Partial<RunTaskInput> } = {},
): Promise<{ res: RunTaskResult; events: RunEvent[]; repo: string; model: ReturnType<typeof createScriptedModel> }> {
  const { dir, work } = fixtureRepo();
  const extra = opts.prepare?.(dir) ?? {};
  const model = createScriptedModel(steps);
  const events: RunEvent[] = [];
  const res = await runTask({
    repoDir: dir,
    branch: 'proofpr/7-median',
    task: { kind: 'issue', issue: 7, title: 'median() is wrong', body: 'median([10, 9, 2]) returns 2, expected 9' },
    config: opts.config ?? demoConfig(),
    model,
    modelId: 'claude-sonnet-5-5',
    mode: opts.mode ?? 'fix',
    runId: `t${Date.now()}`,
    runDir: join(work, 'run'),
    worktreesDir: join(work, 'worktrees'),
    onEvent: (e) => events.push(e),
    ...extra,
  });
  return { res, events, repo: dir, model };
}
