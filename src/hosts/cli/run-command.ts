import { join } from 'node:path';
import { ensureHome, proofprHome } from '../../config/home.js';
import { cliModel } from './cli-model.js';
import type { ModelClient } from '../../model/model-client.js';
import { runTask } from '../../run/run-task.js';
import { sweepWorktrees } from '../../workspace/worktree.js';
import { issueBranch, promptBranch } from '../../usecases/branch-name.js';
import { newRunId } from '../../usecases/run-id.js';
import type { WorkspacePort } from '../../usecases/ports.js';
import { githubRun } from './github-run.js';
import { createRunProgress } from './progress.js';
import { resolveRunOptions, type RawRunFlags } from './run-options.js';

export interface RunCommandDeps {
  env?: NodeJS.ProcessEnv;
  /** Replaces the Anthropic client (the demo's replayed model). */
  model?: ModelClient;
  stdout?: (s: string) => void;
  stderr?: (s: string) => void;
  signal?: AbortSignal;
  /** Replaces the mirror + push of a --github-repo run. */
  workspace?: WorkspacePort;
}

/** `proofpr run`: returns the exit code (CONTRACT §3). With --github-repo/--issue it runs as the App does (githubRun). */
export async function runCommand(flags: RawRunFlags, deps: RunCommandDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  const out = deps.stdout ?? ((s) => process.stdout.write(s));
  const err = deps.stderr ?? ((s) => process.stderr.write(s));
  const opts = resolveRunOptions(flags, env);
  let model = deps.model;
  if (!model) {
    model = cliModel(env, 'run', opts.config.provider);
  }
  if (opts.github) {
    return githubRun(
      { ...opts, github: opts.github },
      {
        env,
        model,
        stdout: out,
        stderr: err,
        ...(deps.signal ? { signal: deps.signal } : {}),
        ...(deps.workspace ? { workspace: deps.workspace } : {}),
      },
    );
  }
  const home = ensureHome(proofprHome(env));
  const runId = newRunId();
  const runDir = opts.out ?? join(home, 'runs', runId);
  const branch = opts.task.kind === 'issue' ? issueBranch(opts.task.issue!, opts.task.title) : promptBranch(opts.task.body, runId);
  // A run killed mid-way leaves its worktree: save its work as a WIP commit on its branch, then remove it.
  const swept = await sweepWorktrees(join(home, 'worktrees'), [opts.repoDir]).catch(() => ({ removed: [], salvaged: [] }));
  if (swept.salvaged.length)
    err(`saved the work of ${swept.salvaged.length} interrupted run(s) as WIP commits: ${swept.salvaged.join(', ')}\n`);
  err(`proofpr run ${runId} on ${opts.repoDir} → branch ${branch} (model ${opts.modelId})\n`);
  const progress = createRunProgress((l) => err(`${l}\n`), env);
  const res = await runTask({
    exitOnStuck: true,
    repoDir: opts.repoDir,
    branch,
    task: opts.task,
    config: opts.config,
    model,
    modelId: opts.modelId,
    mode: 'fix',
    runId,
    runDir,
    worktreesDir: join(home, 'worktrees'),
    keepWorktree: opts.keepWorktree,
    onEvent: progress.onEvent,
    ...(deps.signal ? { signal: deps.signal } : {}),
  }).finally(() => progress.stop());
  err(`run folder: ${runDir}\n`);
  if (res.headSha) err(`${res.wip ? 'WIP commit' : 'commit'} ${res.headSha.slice(0, 12)} on ${branch}\n`);
  if (opts.json) out(`${JSON.stringify(res.evidence)}\n`);
  return res.exitCode;
}
