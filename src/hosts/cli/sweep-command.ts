/**
 * `proofpr sweep [--name N]`: the configured sweeps, once, on a local repository. With a GitHub target
 * (`--github-repo OWNER/NAME` or GITHUB_REPOSITORY, token from GITHUB_TOKEN, API from GITHUB_API_URL) a
 * verified sweep is pushed and its PR opened or updated; without one the work stays committed on the branch.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureHome, proofprHome } from '../../config/home.js';
import { ConfigError, parseConfigYaml, validateRepoConfig } from '../../config/repo-config.js';
import { cliModel } from './cli-model.js';
import type { ModelClient } from '../../model/model-client.js';
import { runTask } from '../../run/run-task.js';
import type { RunTask } from '../../run/run-task-types.js';
import { runSweeps, sweepExitCode, SweepSelectionError, type SweepDeps } from '../../usecases/sweep.js';
import { checkoutWorkspace } from '../shared/checkout-workspace.js';
import { githubTarget } from './github-target.js';
import { UsageError } from './usage-error.js';
import { createRunProgress } from './progress.js';

export interface RawSweepFlags {
  /** One name or several (commander's variadic / repeated option). */
  name?: string | string[];
  repo?: string;
  config?: string;
  model?: string;
  githubRepo?: string;
}

export interface SweepCommandDeps {
  env?: NodeJS.ProcessEnv;
  model?: ModelClient;
  runTask?: RunTask;
  github?: SweepDeps['github'];
  stdout?: (s: string) => void;
  stderr?: (s: string) => void;
}

function gitOut(cwd: string, args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Returns the exit code (CONTRACT §3): the worst of the sweeps' codes; usage errors throw UsageError (2). */
export async function sweepCommand(flags: RawSweepFlags, deps: SweepCommandDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  const err = deps.stderr ?? ((s) => process.stderr.write(s));
  const out = deps.stdout ?? ((s) => process.stdout.write(s));
  const repoDir = resolve(flags.repo ?? '.');
  if (!gitOut(repoDir, ['rev-parse', '--verify', 'HEAD']))
    throw new UsageError(`--repo ${flags.repo ?? '.'}: not a git repository with a commit`);
  const configPath = flags.config ? resolve(flags.config) : join(repoDir, '.github', 'proofpr.yml');
  if (flags.config && !existsSync(configPath)) throw new UsageError(`--config ${flags.config}: no such file`);
  const target = flags.githubRepo ?? env.GITHUB_REPOSITORY;
  const port = target && !deps.github ? githubTarget(target, env).port : undefined;
  let config;
  try {
    const source = flags.config ?? '.github/proofpr.yml';
    const raw = parseConfigYaml(existsSync(configPath) ? readFileSync(configPath, 'utf8') : undefined, source);
    // With a GitHub target, `_extends` is merged as the App merges it; without one it is refused (named).
    config = validateRepoConfig(port && raw._extends !== undefined ? await port.extendConfig(raw) : raw, source);
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
  let model = deps.model;
  if (!model) {
    model = cliModel(env, 'sweep', config.provider);
  }
  const github = deps.github ?? port;
  const names = flags.name === undefined ? undefined : Array.isArray(flags.name) ? flags.name : [flags.name];
  const prBase = gitOut(repoDir, ['symbolic-ref', '--short', 'HEAD']) ?? 'main';
  // Heartbeat: the baseline on the base commit (no run events yet), then each sweep run's steps.
  const progress = createRunProgress((l) => err(`${l}\n`), env);
  progress.heartbeat.step('sweep baseline: setup and tests on the base commit');
  try {
    const outcomes = await runSweeps(
      {
        repoDir,
        baseRef: 'HEAD',
        prBase,
        config,
        ...(names ? { names } : {}),
        modelId: flags.model ?? env.PROOFPR_MODEL ?? config.model,
        home: ensureHome(proofprHome(env)),
        ...(github ? { repoFullName: `${github.owner}/${github.repo}` } : {}),
        onEvent: (_sweep, ev) => progress.onEvent(ev),
      },
      { runTask: deps.runTask ?? runTask, model, ...(github ? { github, workspace: checkoutWorkspace(repoDir) } : {}) },
    );
    for (const o of outcomes) {
      err(`sweep ${o.name}: ${o.verdict}: ${o.reason}\n`);
      if (o.evidencePath) err(`  run folder: ${o.runDir}\n`);
      if (o.pr) out(`${o.pr.url}\n`);
    }
    return sweepExitCode(outcomes);
  } catch (e) {
    if (e instanceof SweepSelectionError) throw new UsageError(e.message);
    throw e;
  } finally {
    progress.stop();
  }
}
