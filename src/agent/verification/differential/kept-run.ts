import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { RunSettings } from '../../settings.js';
import type { ExecPort } from '../../../workspace/exec-port.js';
import { git } from '../../../workspace/git.js';
import { treeHash } from '../../../workspace/tree-hash.js';
import type { TestRun } from '../../events.js';
import { harnessTestRun } from '../test-runs/harness-run.js';
import { withPristineCheckout } from '../test-runs/pristine-checkout.js';
import { testFilePatterns } from '../changes/test-files.js';
import { isHarnessPath, isTestScriptName, PACKAGE_RUNNER_KEYS } from './harness-paths.js';

export interface HarnessChange {
  /** Harness paths the commit changed that exist on the base: restored to the base version. */
  restored: string[];
  /** Harness paths the commit added: removed. */
  removed: string[];
  /** package.json files whose test scripts or runner sections were put back to the base's. */
  packageJson: string[];
}

export interface KeptRunOptions {
  root: string;
  gitDir?: string;
  baseSha: string;
  /** The commit the final run tested. */
  sha: string;
  config: Pick<RunSettings, 'test'>;
  exec: ExecPort;
  scratchDir: string;
  outputFile?: string;
  signal?: AbortSignal;
  logger?: Logger;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

async function gitIn(cwd: string, args: string[], gitDir?: string): Promise<string> {
  const r = await git(args, { cwd, config: { 'core.quotePath': 'false' }, ...(gitDir ? { env: { GIT_DIR: gitDir } } : {}) });
  return r.stdout;
}

/** Paths (added, modified, deleted) between two commits, without rename detection. */
async function changes(opts: KeptRunOptions): Promise<Array<{ status: string; path: string }>> {
  const out = await gitIn(opts.root, ['diff', '--name-status', '--no-renames', '-z', opts.baseSha, opts.sha], opts.gitDir);
  const parts = out.split('\0');
  const list: Array<{ status: string; path: string }> = [];
  for (let i = 0; i + 1 < parts.length; i += 2) list.push({ status: parts[i] ?? '', path: parts[i + 1] ?? '' });
  return list;
}

/** The commit's package.json with the base's test scripts and runner sections; undefined when they already agree. */
function withBaseHarness(now: Json, base: Json): Json | undefined {
  const out: Json = { ...now };
  let changed = false;
  for (const k of PACKAGE_RUNNER_KEYS) {
    if (JSON.stringify(now[k]) === JSON.stringify(base[k])) continue;
    changed = true;
    if (k in base) out[k] = base[k];
    else delete out[k];
  }
  const sNow = isObject(now.scripts) ? now.scripts : {};
  const sBase = isObject(base.scripts) ? base.scripts : {};
  const scripts: Json = { ...sNow };
  for (const name of new Set([...Object.keys(sNow), ...Object.keys(sBase)])) {
    if (!isTestScriptName(name) || JSON.stringify(sNow[name]) === JSON.stringify(sBase[name])) continue;
    changed = true;
    if (name in sBase) scripts[name] = sBase[name];
    else delete scripts[name];
  }
  if (Object.keys(scripts).length || 'scripts' in now) out.scripts = scripts;
  return changed ? out : undefined;
}

/** Which harness paths the commit changed against the base (empty lists: nothing to restore). */
export async function harnessChange(opts: KeptRunOptions): Promise<HarnessChange> {
  const patterns = testFilePatterns(opts.root);
  const restored: string[] = [];
  const removed: string[] = [];
  const packageJson: string[] = [];
  for (const c of await changes(opts)) {
    if (c.path === 'package.json' || c.path.endsWith('/package.json')) {
      if (c.status === 'M') packageJson.push(c.path);
      continue;
    }
    if (!isHarnessPath(c.path, patterns)) continue;
    if (c.status === 'A') removed.push(c.path);
    else restored.push(c.path);
  }
  return { restored, removed, packageJson };
}

const nothing = (h: HarnessChange): boolean => !h.restored.length && !h.removed.length && !h.packageJson.length;

/** Puts the base's harness into the checkout `dir` of the commit; returns the package.json files actually changed. */
async function restoreHarness(dir: string, opts: KeptRunOptions, h: HarnessChange): Promise<string[]> {
  const g = { cwd: dir, config: { 'core.hooksPath': '/dev/null' } };
  const restore = h.restored.filter(Boolean);
  for (let i = 0; i < restore.length; i += 200) await git(['checkout', opts.baseSha, '--', ...restore.slice(i, i + 200)], g);
  for (const p of h.removed) await rm(join(dir, p), { force: true, recursive: true });
  const touched: string[] = [];
  for (const p of h.packageJson) {
    const base = JSON.parse(await gitIn(dir, ['show', `${opts.baseSha}:${p}`])) as unknown;
    const now = JSON.parse(await readFile(join(dir, p), 'utf8')) as unknown;
    if (!isObject(base) || !isObject(now)) continue;
    const merged = withBaseHarness(now, base);
    if (!merged) continue;
    await writeFile(join(dir, p), `${JSON.stringify(merged, null, 2)}\n`);
    touched.push(p);
  }
  return touched;
}

/**
 * The differential run: the commit's source under the base commit's test harness. In a clean checkout
 * of the tested commit, every harness path the commit changed is restored to the base version, every
 * one it added is removed, package.json test scripts and runner sections are put back, and
 * test.command runs there. Undefined when the commit changed no harness path (the final run already
 * is that run). Never throws for a failing command; a checkout failure is a run with unknown counts.
 */
/** `text` with the absolute paths under `dir` written relative to it (`dir` itself as `.`). */
export function repositoryRelative(text: string, dir: string): string {
  return text.split(`${dir}/`).join('').split(dir).join('.');
}

export async function keptRun(opts: KeptRunOptions): Promise<{ run: TestRun; output: string; change: HarnessChange } | undefined> {
  const command = opts.config.test.command;
  if (command === undefined) return undefined;
  const change = await harnessChange(opts).catch(() => undefined);
  if (!change || nothing(change)) return undefined;
  const startedAt = new Date().toISOString();
  try {
    return await withPristineCheckout(
      {
        root: opts.root,
        ...(opts.gitDir ? { gitDir: opts.gitDir } : {}),
        sha: opts.sha,
        scratchDir: opts.scratchDir,
        ...(opts.logger ? { logger: opts.logger } : {}),
      },
      async (dir) => {
        const packageJson = await restoreHarness(dir, opts, change);
        const tree = await treeHash(dir).catch(() => '');
        const { run, output } = await harnessTestRun({
          cwd: dir,
          command,
          config: opts.config,
          exec: opts.exec,
          scratchDir: opts.scratchDir,
          kind: 'kept',
          treeHash: tree,
          commit: opts.sha,
          ...(opts.outputFile ? { outputFile: opts.outputFile } : {}),
          ...(opts.signal ? { signal: opts.signal } : {}),
        });
        // The checkout is a scratch folder gone after the run: its paths in the output read repository-relative,
        // so what the reviewer is shown (changed expectations in summary.md) names no host path.
        return { run, output: repositoryRelative(output, dir), change: { ...change, packageJson } };
      },
    );
  } catch (e) {
    const run: TestRun = {
      command,
      exitCode: null,
      startedAt,
      endedAt: new Date().toISOString(),
      treeHash: '',
      counts: null,
      source: 'none',
      by: 'harness',
      kind: 'kept',
      commit: opts.sha,
      note: `could not put the base's test harness on the commit: ${(e as Error).message.trim()}`,
    };
    return { run, output: '', change };
  }
}
