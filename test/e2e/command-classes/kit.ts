import { afterAll } from '@jest/globals';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseRepoConfig } from '../../../src/config/repo-config.js';
import { createScriptedModel, text, toolUse, type ScriptStep } from '../../../src/model/scripted.js';
import { runTask } from '../../../src/run/run-task.js';
import type { RunTaskResult } from '../../../src/run/run-task-types.js';
import { git } from '../helpers.js';
import { tempDir } from '../../kit/temp.js';

/** Helpers of the command-class e2e tests: a tiny project written by the test, committed in a temp repo, run through runTask. */
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

/** This repository's node_modules (real runners, offline). */
export const NODE_MODULES = resolve('node_modules');

/** A committed repository holding `files`; `linkNodeModules` links this repository's node_modules in (ignored by git). */
export function makeRepo(files: Record<string, string>, linkNodeModules = false): { dir: string; work: string } {
  const work = tempDir('proofpr-cc-');
  temps.push(work);
  const dir = join(work, 'repo');
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), content);
  }
  if (linkNodeModules) symlinkSync(NODE_MODULES, join(dir, 'node_modules'));
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'initial']);
  return { dir, work };
}

/** The scripted agent: it reads the file, makes one Edit, runs the tests through Bash, then is done. */
export function fixSteps(file: string, oldString: string, newString: string, testCommand: string): ScriptStep[] {
  return [
    { content: [toolUse('Read', { file_path: file })] },
    { content: [toolUse('Edit', { file_path: file, old_string: oldString, new_string: newString })] },
    { content: [toolUse('Bash', { command: testCommand })] },
    { content: [text('Done.')] },
  ];
}

export async function runOn(
  repo: { dir: string; work: string },
  steps: ScriptStep[],
  configYaml: string,
  env?: Record<string, string | undefined>,
): Promise<{ res: RunTaskResult; model: ReturnType<typeof createScriptedModel> }> {
  const model = createScriptedModel(steps);
  const saved = env ? { ...process.env } : undefined;
  for (const [k, v] of Object.entries(env ?? {})) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    const res = await runTask({
      repoDir: repo.dir,
      branch: 'proofpr/1-fix',
      task: { kind: 'issue', issue: 1, title: 'a bug', body: 'the function returns the wrong value' },
      config: parseRepoConfig(configYaml),
      model,
      modelId: 'claude-sonnet-5-5',
      mode: 'fix',
      runId: `cc${Date.now()}`,
      runDir: join(repo.work, `run-${Date.now()}`),
      worktreesDir: join(repo.work, 'worktrees'),
    });
    return { res, model };
  } finally {
    if (saved) process.env = saved;
  }
}

/** The harness's final run and the agent's run of a result. */
export function runsOf(res: RunTaskResult) {
  const final = res.evidence.testRuns.find((r) => r.by === 'harness' && r.kind === 'final');
  const agent = res.evidence.testRuns.find((r) => r.by === 'agent');
  return { final, agent };
}
