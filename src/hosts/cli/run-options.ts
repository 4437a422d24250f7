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
}

export interface RunOptions {
  repoDir: string;
  task: { kind: 'issue' | 'prompt'; issue?: number; title: string; body: string };
  config: RepoConfig;
  modelId: string;
  out?: string;
  json: boolean;
  keepWorktree: boolean;
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
  const repoDir = resolve(f.repo ?? '.');
  if (!existsSync(repoDir) || !statSync(repoDir).isDirectory()) throw new UsageError(`--repo ${f.repo ?? '.'}: no such directory`);
  try {
    execFileSync('git', ['rev-parse', '--git-dir'], { cwd: repoDir, stdio: 'ignore' });
  } catch {
    throw new UsageError(`--repo ${f.repo ?? '.'}: not a git repository (run \`git init\` and commit, or point --repo at a clone)`);
  }
  try {
    execFileSync('git', ['rev-parse', '--verify', 'HEAD'], { cwd: repoDir, stdio: 'ignore' });
  } catch {
    throw new UsageError(`--repo ${f.repo ?? '.'}: the repository has no commit yet (commit something first)`);
  }

  if ((f.prompt === undefined) === (f.issueFile === undefined)) throw new UsageError('give exactly one of --prompt TEXT or --issue-file FILE');
  let task: RunOptions['task'];
  if (f.prompt !== undefined) {
    if (!f.prompt.trim()) throw new UsageError('--prompt: empty text');
    task = { kind: 'prompt', title: f.prompt.split('\n')[0]!.slice(0, 100), body: f.prompt };
  } else {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(f.issueFile!, 'utf8'));
    } catch (e) {
      throw new UsageError(`--issue-file ${f.issueFile}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : `not JSON (${(e as Error).message})`}`);
    }
    const p = issueFileSchema.safeParse(raw);
    if (!p.success) {
      const i = p.error.issues[0]!;
      throw new UsageError(`--issue-file ${f.issueFile}: field "${i.path.join('.') || '(root)'}": ${i.message} (expected { "number": 12, "title": "…", "body": "…" })`);
    }
    task = { kind: 'issue', issue: p.data.number, title: p.data.title, body: p.data.body };
  }

  const configPath = f.config ? resolve(f.config) : join(repoDir, '.github', 'proofpr.yml');
  if (f.config && !existsSync(configPath)) throw new UsageError(`--config ${f.config}: no such file`);
  let config: RepoConfig;
  try {
    config = parseRepoConfig(existsSync(configPath) ? readFileSync(configPath, 'utf8') : undefined, f.config ?? '.github/proofpr.yml');
  } catch (e) {
    if (e instanceof ConfigError) throw new UsageError(e.message);
    throw e;
  }
  const maxTurns = positive('--max-turns', f.maxTurns, true);
  const maxCost = positive('--max-cost-usd', f.maxCostUsd, false);
  const timeout = positive('--timeout-min', f.timeoutMin, false);
  config = {
    ...config,
    ...(maxTurns !== undefined ? { max_turns: maxTurns } : {}),
    ...(maxCost !== undefined ? { max_cost_usd: maxCost } : {}),
    ...(timeout !== undefined ? { timeout_min: timeout } : {}),
  };
  const modelId = f.model ?? env.PROOFPR_MODEL ?? config.model;
  return {
    repoDir,
    task,
    config,
    modelId,
    ...(f.out ? { out: isAbsolute(f.out) ? f.out : resolve(f.out) } : {}),
    json: f.json === true,
    keepWorktree: f.keepWorktree === true,
  };
}
