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
import { classifyCommits } from '../shipped/classify.js';
import { spliceTests } from '../shipped/rust-tests.js';
import { isTestScriptName, PACKAGE_RUNNER_KEYS } from '../shipped/harness-paths.js';

export interface HarnessChange {
  /** Harness paths the commit changed that exist on the base: restored to the base version. */
  restored: string[];
  /** Harness paths the commit added: removed. */
  removed: string[];
  /** package.json files whose test scripts or runner sections were put back to the base's. */
  packageJson: string[];
  /** Shipped sources with inline tests (Rust): the commit's code with the base's `#[cfg(test)]` items. */
  spliced?: string[];
  /** The restored or removed paths that are tests (by the runner's identity); the rest is infrastructure. */
  tests?: string[];
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

/**
 * What the kept run puts back to the base: every change that is not the code the project ships
 * (shipped/classify.ts: decided from the project's manifests, not from file names) and not a manifest
 * or lock file. Tests, runner, transform and build configs of any name, data, fixtures and generated
 * files are restored (removed when the commit added them); a shipped Rust source keeps its code and
 * gets the base's inline tests back; package.json keeps everything but its test scripts and runner sections.
 */
export async function harnessChange(opts: KeptRunOptions): Promise<HarnessChange> {
  const view = await classifyCommits({ root: opts.root, ...(opts.gitDir ? { gitDir: opts.gitDir } : {}) }, opts.baseSha, opts.sha);
  const restored: string[] = [];
  const removed: string[] = [];
  const packageJson: string[] = [];
  const spliced: string[] = [];
  const tests: string[] = [];
  for (const c of view.changes) {
    if (c.kind === 'test' || c.kind === 'inline-test') tests.push(c.path);
    if (c.path === 'package.json' || c.path.endsWith('/package.json')) {
      if (c.status === 'M') packageJson.push(c.path);
      continue;
    }
    if (c.kind === 'shipped' || c.kind === 'manifest') continue;
    if (c.kind === 'mixed') spliced.push(c.path);
    else if (c.status === 'A') removed.push(c.path);
    else restored.push(c.path);
  }
  return { restored, removed, packageJson, ...(spliced.length ? { spliced } : {}), ...(tests.length ? { tests } : {}) };
}

const nothing = (h: HarnessChange): boolean => !h.restored.length && !h.removed.length && !h.packageJson.length && !h.spliced?.length;

/** Puts the base's harness into the checkout `dir` of the commit; returns the package.json files actually changed. */
async function restoreHarness(dir: string, opts: KeptRunOptions, h: HarnessChange): Promise<string[]> {
  const g = { cwd: dir, config: { 'core.hooksPath': '/dev/null' } };
  const restore = h.restored.filter(Boolean);
  for (let i = 0; i < restore.length; i += 200) await git(['checkout', opts.baseSha, '--', ...restore.slice(i, i + 200)], g);
  for (const p of h.removed) await rm(join(dir, p), { force: true, recursive: true });
  for (const p of h.spliced ?? []) {
    const base = await gitIn(dir, ['show', `${opts.baseSha}:${p}`]);
    await writeFile(join(dir, p), spliceTests(await readFile(join(dir, p), 'utf8'), base));
  }
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
