/**
 * `proofpr backtest --repo DIR [--last N] [--out DIR] [--json] [--model [ID]] [--config FILE]` (CONTRACT §10):
 * replays recent fix commits of DIR through the harness, prints the table and writes DIR_OUT/backtest.json.
 * --config (an addition to §10): the proofpr.yml you would install with, used for every case instead of
 * each parent's own (old commits have none: without it a repository with no lock file has no setup).
 * Exit 0 when it ran (whatever the rates), 2 on bad input, 1 on an internal error.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runBacktest } from '../../backtest/backtest.js';
import { renderTable } from '../../backtest/render-table.js';
import type { BacktestReport } from '../../backtest/types.js';
import { proofprHome } from '../../config/home.js';
import { DEFAULT_MODEL } from '../../config/repo-config.js';
import { packageRoot } from './package-root.js';
import { readConfigFile } from './read-config-file.js';
import { UsageError } from './usage-error.js';

export interface BacktestFlags {
  repo?: string;
  last?: string;
  out?: string;
  json?: boolean;
  model?: string | boolean;
  config?: string;
}

export interface BacktestDeps {
  env?: NodeJS.ProcessEnv;
  stdout?: (s: string) => void;
  stderr?: (s: string) => void;
  /** The CLI launcher the passes run (default: this package's bin/proofpr.js). */
  bin?: string;
}

const MAX_LAST = 100;

function isGitRepo(dir: string): boolean {
  const r = spawnSync('git', ['rev-parse', '--verify', '-q', 'HEAD'], { cwd: dir, encoding: 'utf8' });
  return r.status === 0;
}

function parseLast(text: string | undefined): number {
  const n = Number(text ?? '10');
  if (!Number.isInteger(n) || n < 1 || n > MAX_LAST)
    throw new UsageError(
      `--last must be a whole number from 1 to ${MAX_LAST} (got "${text ?? ''}"): how many recent fix commits to replay`,
    );
  return n;
}

function parseModel(flag: string | boolean | undefined): string | true | undefined {
  if (flag === undefined || flag === false) return undefined;
  if (flag === true) return true;
  if (!flag.trim()) throw new UsageError('--model needs a model id, or no value for the configured model');
  return flag.trim();
}

/** --config: the file's path and text, validated as a run validates it (ConfigError names the bad key). */
function parseConfig(flag: string | undefined, repo: string): { path: string; text: string } | undefined {
  if (flag === undefined) return undefined;
  const path = resolve(flag);
  if (!existsSync(path)) throw new UsageError(`--config ${flag}: no such file (a proofpr.yml to use for every case)`);
  readConfigFile(repo, path);
  return { path, text: readFileSync(path, 'utf8') };
}

export async function backtestCommand(flags: BacktestFlags, deps: BacktestDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  const out = deps.stdout ?? ((s) => process.stdout.write(s));
  const err = deps.stderr ?? ((s) => process.stderr.write(s));
  const repo = resolve(flags.repo ?? '.');
  if (!isGitRepo(repo))
    throw new UsageError(`--repo ${repo} is not a git repository with a commit: pass a clone of the repository to backtest`);
  const last = parseLast(flags.last);
  const model = parseModel(flags.model);
  const config = parseConfig(flags.config, repo);
  const outDir = resolve(flags.out ?? join(proofprHome(env), 'backtest'));
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, 'backtest.json');
  const save = (r: BacktestReport): void => writeFileSync(file, `${JSON.stringify(r, null, 2)}\n`);
  const modelId = typeof model === 'string' ? model : env.PROOFPR_MODEL || DEFAULT_MODEL;
  err(`proofpr backtest on ${repo}: the last ${last} fix commit(s)${model ? ` with the agent (${modelId})` : ''}\n`);
  const report = await runBacktest({
    repo,
    last,
    runsDir: join(outDir, 'runs'),
    home: proofprHome(env),
    bin: deps.bin ?? join(packageRoot(), 'bin', 'proofpr.js'),
    env,
    modelId,
    ...(model !== undefined ? { model } : {}),
    ...(config ? { config } : {}),
    progress: (l) => err(`${l}\n`),
    onReport: save,
  });
  save(report);
  out(renderTable(report));
  err(`wrote ${file}\n`);
  if (flags.json) out(`${JSON.stringify(report)}\n`);
  return 0;
}
