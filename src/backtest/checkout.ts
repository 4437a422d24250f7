/**
 * The backtest's own checkout of the repository (a shared clone of the tool's cache repository): where
 * the selection rule runs the tests (parent + test change must fail, the fix must pass), where the
 * runner's own count is read, and where a --model run's result is judged. Dependencies are installed
 * there with the project's setup command (configured or detected), again only when the manifests change.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseRepoConfig } from '../config/repo-config.js';
import { detectCommands } from '../detect/detect-commands.js';
import { resolveCommands } from '../detect/resolve-commands.js';
import { scrubbedEnv } from '../workspace/env-scrub.js';
import { git } from './git.js';

export interface Checkout {
  dir: string;
  /** HOME and TMPDIR of the commands run here (never the user's own home). */
  home: string;
  /** The setup command and manifests of the last install, when one ran. */
  setupKey?: string;
  /** --config: this proofpr.yml's text for every commit, instead of each commit's own .github/proofpr.yml. */
  configText?: string;
  /** The config's `env` names (a CA bundle, a proxy), passed to setup and tests here as a run passes them. */
  envNames?: string[];
  /** The backtest's environment, where those names are read (default: this process's). */
  parentEnv?: NodeJS.ProcessEnv;
}

export interface ShellResult {
  code: number;
  out: string;
  ms: number;
}

export interface Commands {
  test?: string;
  setup?: string;
  /** When there is no test command: the sentence naming the config key to set. */
  missing?: string;
}

const MANIFESTS =
  /(^|\/)(package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|pnpm-workspace\.yaml|\.npmrc|\.yarnrc(\.yml)?|pyproject\.toml|requirements[^/]*\.txt|go\.sum|Cargo\.lock)$/;
const TIMEOUT_MS = 20 * 60_000;

export function openCheckout(bare: string, dir: string, home: string, o: { configText?: string; env?: NodeJS.ProcessEnv } = {}): Checkout {
  git(bare, ['clone', '-q', '--shared', '--no-checkout', bare, dir]);
  mkdirSync(join(home, 'tmp'), { recursive: true });
  return { dir, home, ...(o.configText !== undefined ? { configText: o.configText } : {}), ...(o.env ? { parentEnv: o.env } : {}) };
}

/** The checkout at `rev`: tracked files as the commit has them, untracked files removed, ignored ones (installs) kept. */
export function checkoutAt(co: Checkout, rev: string): void {
  git(co.dir, ['checkout', '-q', '-f', '--detach', rev]);
  git(co.dir, ['clean', '-q', '-fd']);
}

/** `command` through bash in the checkout, with the scrubbed environment every child of proofpr gets. */
export function shell(co: Checkout, command: string): ShellResult {
  const t = performance.now();
  const tmpdir = join(co.home, 'tmp');
  const scrub = { home: co.home, tmpdir, extraNames: co.envNames ?? [], ...(co.parentEnv ? { parent: co.parentEnv } : {}) };
  const env = { ...scrubbedEnv(scrub), NO_COLOR: '1' };
  const r = spawnSync('bash', ['-c', command], { cwd: co.dir, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: TIMEOUT_MS });
  return { code: r.status ?? 1, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, ms: performance.now() - t };
}

/** The test and setup commands at the checked-out commit: --config or its .github/proofpr.yml, else detected (as a run resolves them). */
export async function commandsAt(co: Checkout): Promise<Commands> {
  const text = co.configText ?? (await readFile(join(co.dir, '.github', 'proofpr.yml'), 'utf8').catch(() => undefined));
  const config = parseRepoConfig(text);
  co.envNames = config.env;
  const r = resolveCommands(config, await detectCommands(co.dir));
  return {
    ...(r.test ? { test: r.test.command } : {}),
    ...(r.setup ? { setup: r.setup.command } : {}),
    ...(r.missing ? { missing: r.missing } : {}),
  };
}

/** Runs `setup` when it or the checked-out manifests differ from the last install; the error names the command. */
export function ensureSetup(co: Checkout, setup: string | undefined): void {
  if (!setup) return;
  const manifests = git(co.dir, ['ls-files', '-s'])
    .split('\n')
    .filter((l) => MANIFESTS.test(l))
    .join('\n');
  const key = createHash('sha256').update(`${setup}\n${manifests}`).digest('hex');
  if (key === co.setupKey) return;
  const r = shell(co, setup);
  if (r.code !== 0) throw new Error(`setup \`${setup}\` failed (exit ${r.code}): ${r.out.slice(-1500)}`);
  co.setupKey = key;
}
