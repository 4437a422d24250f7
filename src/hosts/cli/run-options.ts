import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { z } from 'zod';
import { ConfigError, parseRepoConfig, type RepoConfig } from '../../config/repo-config.js';
import { UsageError } from './usage-error.js';

export interface RawRunFlags {
  repo?: string;
  prompt?: string;
  issueFile?: string;
  config?: string;
  model?: string;
  maxTurns?: string;
  maxCostUsd?: string;
  timeoutMin?: string;
  out?: string;
  json?: boolean;
  keepWorktree?: boolean;
  /** GitHub target OWNER/NAME (with --issue). */
  githubRepo?: string;
  /** Issue number on --github-repo. */
  issue?: string;
}

export interface RunOptions {
  repoDir: string;
  task: { kind: 'issue' | 'prompt'; issue?: number; title: string; body: string };
  config: RepoConfig;
  modelId: string;
  out?: string;
  json: boolean;
  keepWorktree: boolean;
  /** Set with --github-repo/--issue: the task is read from GitHub and the config from its default branch (unless --config). */
  github?: { target: string; issue: number; configFromFlag: boolean };
  /** --max-turns / --max-cost-usd / --timeout-min, to re-apply over a config loaded later. */
  limits: Partial<Pick<RepoConfig, 'max_turns' | 'max_cost_usd' | 'timeout_min'>>;
  /** --model or PROOFPR_MODEL, when given. */
  modelOverride?: string;
}

const issueFileSchema = z.object({ number: z.number().int().positive(), title: z.string().min(1), body: z.string().default('') });

function positive(flag: string, v: string | undefined, int: boolean): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0 || (int && !Number.isInteger(n))) {
    throw new UsageError(`${flag} ${JSON.stringify(v)}: expected a positive ${int ? 'whole number' : 'number'}`);
  }
  return n;
}

/** Validate `proofpr run` flags against the filesystem and the repo config; every error names its flag. */
export function resolveRunOptions(f: RawRunFlags, env: NodeJS.ProcessEnv = process.env): RunOptions {
  if (f.issue !== undefined && f.githubRepo === undefined)
    throw new UsageError(`--issue ${f.issue}: needs --github-repo OWNER/NAME (for a local repository use --issue-file FILE)`);
  if (f.githubRepo !== undefined && f.issue === undefined)
    throw new UsageError(`--github-repo ${f.githubRepo}: needs --issue N (the issue to fix)`);
  const sources = [f.prompt, f.issueFile, f.issue].filter((x) => x !== undefined).length;
  if (sources !== 1)
    throw new UsageError('give exactly one of --prompt TEXT, --issue-file FILE or --issue N (with --github-repo OWNER/NAME)');
  const github =
    f.issue !== undefined
      ? { target: f.githubRepo!, issue: positive('--issue', f.issue, true)!, configFromFlag: f.config !== undefined }
      : undefined;
  if (github && f.out) throw new UsageError('--out: not available with --github-repo (the run folder is $PROOFPR_HOME/runs/<run-id>)');
  const repoDir = resolve(f.repo ?? '.');
  if (!github) checkRepo(repoDir, f.repo ?? '.');

  let task: RunOptions['task'];
  if (github) {
    task = { kind: 'issue', issue: github.issue, title: `#${github.issue}`, body: '' };
  } else if (f.prompt !== undefined) {
    if (!f.prompt.trim()) throw new UsageError('--prompt: empty text');
    task = { kind: 'prompt', title: f.prompt.split('\n')[0]!.slice(0, 100), body: f.prompt };
  } else {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(f.issueFile!, 'utf8'));
    } catch (e) {
      throw new UsageError(
        `--issue-file ${f.issueFile}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : `not JSON (${(e as Error).message})`}`,
      );
    }
    const p = issueFileSchema.safeParse(raw);
    if (!p.success) {
      const i = p.error.issues[0]!;
      throw new UsageError(
        `--issue-file ${f.issueFile}: field "${i.path.join('.') || '(root)'}": ${i.message} (expected { "number": 12, "title": "…", "body": "…" })`,
      );
    }
    task = { kind: 'issue', issue: p.data.number, title: p.data.title, body: p.data.body };
  }

  // With --github-repo and no --config, the config comes from the repository's default branch (githubRun).
  const configPath = f.config ? resolve(f.config) : github ? undefined : join(repoDir, '.github', 'proofpr.yml');
  if (f.config && !existsSync(f.config)) throw new UsageError(`--config ${f.config}: no such file`);
  let config: RepoConfig;
  try {
    config = parseRepoConfig(
      configPath && existsSync(configPath) ? readFileSync(configPath, 'utf8') : undefined,
      f.config ?? '.github/proofpr.yml',
    );
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
  const maxTurns = positive('--max-turns', f.maxTurns, true);
  const maxCost = positive('--max-cost-usd', f.maxCostUsd, false);
  const timeout = positive('--timeout-min', f.timeoutMin, false);
  const limits = {
    ...(maxTurns !== undefined ? { max_turns: maxTurns } : {}),
    ...(maxCost !== undefined ? { max_cost_usd: maxCost } : {}),
    ...(timeout !== undefined ? { timeout_min: timeout } : {}),
  };
  config = { ...config, ...limits };
  const modelOverride = f.model ?? env.PROOFPR_MODEL;
  const modelId = modelOverride ?? config.model;
  return {
    repoDir,
    ...(github ? { github } : {}),
    limits,
    ...(modelOverride ? { modelOverride } : {}),
    task,
    config,
    modelId,
    ...(f.out ? { out: isAbsolute(f.out) ? f.out : resolve(f.out) } : {}),
    json: f.json === true,
    keepWorktree: f.keepWorktree === true,
  };
}

function checkRepo(repoDir: string, flag: string): void {
  if (!existsSync(repoDir) || !statSync(repoDir).isDirectory()) throw new UsageError(`--repo ${flag}: no such directory`);
  try {
    execFileSync('git', ['rev-parse', '--git-dir'], { cwd: repoDir, stdio: 'ignore' });
  } catch {
    throw new UsageError(`--repo ${flag}: not a git repository (run \`git init\` and commit, or point --repo at a clone)`);
  }
  try {
    execFileSync('git', ['rev-parse', '--verify', 'HEAD'], { cwd: repoDir, stdio: 'ignore' });
  } catch {
    throw new UsageError(`--repo ${flag}: the repository has no commit yet (commit something first)`);
  }
}
