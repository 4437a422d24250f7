/**
 * `proofpr verify (--repo DIR --base REF --head REF | --github-repo OWNER/NAME --pr N) [--config FILE]
 * [--out DIR] [--json]` (CONTRACT §11): the differential verification of a change nobody asked proofpr to
 * write (a human's pull request, another agent's), with no model and no write to the repository. Exit
 * codes as `run`: 0 verified, 3 unverified, 2 bad input (1 an internal error, 4 aborted).
 */
import { resolve, join } from 'node:path';
import { ensureHome, proofprHome } from '../../config/home.js';
import { ConfigError, type RepoConfig } from '../../config/repo-config.js';
import { newRunId } from '../../usecases/run-id.js';
import { verifyLocal, verifyPullRequest, VerifyInputError, type VerifyPlace } from '../../usecases/verify/verify-change.js';
import type { RunTaskResult } from '../../run/run-task-types.js';
import { githubTarget } from './github-target.js';
import { createRunProgress } from './progress.js';
import { readConfigFile } from './read-config-file.js';
import { UsageError } from './usage-error.js';

export interface VerifyFlags {
  repo?: string;
  base?: string;
  head?: string;
  githubRepo?: string;
  pr?: string;
  config?: string;
  out?: string;
  json?: boolean;
}

export interface VerifyCommandDeps {
  env?: NodeJS.ProcessEnv;
  stdout?: (s: string) => void;
  stderr?: (s: string) => void;
  signal?: AbortSignal;
}

type Target = { kind: 'local'; dir: string; base: string; head: string } | { kind: 'github'; repo: string; pr: number };

/** Exactly one of the two ways to name the change; each missing or extra flag named. */
function targetOf(flags: VerifyFlags): Target {
  const local = flags.base !== undefined || flags.head !== undefined;
  const github = flags.githubRepo !== undefined || flags.pr !== undefined;
  if (local && github)
    throw new UsageError(
      '--base/--head and --github-repo/--pr name the change two ways: pass one pair (a local base and head, or a pull request)',
    );
  if (github) {
    if (!flags.githubRepo) throw new UsageError('--pr needs --github-repo OWNER/NAME: the repository of the pull request');
    const pr = Number(flags.pr);
    if (!Number.isInteger(pr) || pr < 1) throw new UsageError(`--pr must be a pull request number (got "${flags.pr ?? ''}")`);
    return { kind: 'github', repo: flags.githubRepo, pr };
  }
  if (!flags.base || !flags.head)
    throw new UsageError(
      `${flags.base ? '--head' : '--base'} is missing: pass --base REF --head REF (the commit the change starts from and the change), or --github-repo OWNER/NAME --pr N`,
    );
  return { kind: 'local', dir: resolve(flags.repo ?? '.'), base: flags.base, head: flags.head };
}

/** --config: validated as a run validates it; a bad key is a usage error (exit 2) naming it. */
function configFlag(flags: VerifyFlags, dir: string): RepoConfig | undefined {
  if (flags.config === undefined) return undefined;
  const file = readConfigFile(dir, flags.config);
  if (!file.exists) throw new UsageError(`--config ${flags.config}: no such file`);
  return file.config;
}

async function verifyTarget(target: Target, flags: VerifyFlags, place: VerifyPlace, env: NodeJS.ProcessEnv): Promise<RunTaskResult> {
  if (target.kind === 'local') {
    const config = configFlag(flags, target.dir);
    return verifyLocal({ dir: target.dir, base: target.base, head: target.head, ...(config ? { config } : {}) }, place);
  }
  const gh = githubTarget(target.repo, env);
  const config = configFlag(flags, process.cwd());
  // The CLI writes nothing to GitHub: the check run is the App's and the Action's.
  const out = await verifyPullRequest(gh.port, { number: target.pr, ...(config ? { config } : {}), post: false }, place);
  return out.result;
}

export async function verifyCommand(flags: VerifyFlags, deps: VerifyCommandDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  const out = deps.stdout ?? ((s) => process.stdout.write(s));
  const err = deps.stderr ?? ((s) => process.stderr.write(s));
  const target = targetOf(flags);
  const home = ensureHome(proofprHome(env));
  const runId = newRunId();
  const runDir = flags.out ? resolve(flags.out) : join(home, 'runs', runId);
  const what = target.kind === 'local' ? `${target.base}..${target.head} of ${target.dir}` : `${target.repo}#${target.pr}`;
  err(`proofpr verify ${runId}: ${what} (no model)\n`);
  const progress = createRunProgress((l) => err(`${l}\n`), env);
  const place: VerifyPlace = {
    runId,
    runDir,
    worktreesDir: join(home, 'worktrees'),
    onEvent: progress.onEvent,
    ...(deps.signal ? { signal: deps.signal } : {}),
  };
  let res: RunTaskResult;
  try {
    res = await verifyTarget(target, flags, place, env).finally(() => progress.stop());
  } catch (e) {
    if (e instanceof VerifyInputError) throw new UsageError(e.message);
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
  const ev = res.evidence;
  out(`${ev.verdict}: ${ev.reason}\n`);
  for (const g of ev.gates) out(`  ${g.passed ? 'pass' : 'FAIL'} ${g.name}: ${g.detail.split('\n')[0] ?? ''}\n`);
  err(`run folder: ${runDir}\n`);
  if (flags.json) out(`${JSON.stringify(ev)}\n`);
  return res.exitCode;
}
