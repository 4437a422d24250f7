/** Helpers of the command-class e2e tests: a tiny project written by the test, committed in a temp repo, run through runTask. */
import { join } from 'node:path';
import { parseRepoConfig } from '../../../src/config/repo-config.js';
import type { ScriptedModel, ScriptStep } from '../../../src/model/scripted.js';
import type { RunTaskResult } from '../../../src/run/run-task-types.js';
import { bash, edit, read, said } from '../../kit/e2e-script.js';
import { runIssue, tempRepo, type Files, type TempRepo } from '../helpers.js';

/** A committed repository holding `files`; `linkNodeModules` links this repository's node_modules in (ignored by git). */
export function makeRepo(files: Files, linkNodeModules = false): TempRepo {
  return tempRepo({ files, nodeModules: linkNodeModules, prefix: 'proofpr-cc-' });
}

/** The scripted agent: it reads the file, makes one Edit, runs the tests through Bash, then is done. */
export function fixSteps(file: string, oldString: string, newString: string, testCommand: string): ScriptStep[] {
  return [read(file), edit(file, oldString, newString), bash(testCommand), said('Done.')];
}

export async function runOn(
  repo: TempRepo,
  steps: ScriptStep[],
  configYaml: string,
  env?: Record<string, string | undefined>,
): Promise<{ res: RunTaskResult; model: ScriptedModel }> {
  const saved = env ? { ...process.env } : undefined;
  for (const [k, v] of Object.entries(env ?? {})) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    return await runIssue(repo, {
      issue: { number: 1, title: 'a bug', body: 'the function returns the wrong value' },
      branch: 'proofpr/1-fix',
      config: parseRepoConfig(configYaml),
      script: steps,
      runId: `cc${Date.now()}`,
      runDir: join(repo.work, `run-${Date.now()}`),
    });
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
