/**
 * Brings one manifest case onto this machine, under bench/.cache/real/ (ignored by git):
 * the upstream fix and its parent fetched (shallow) from GitHub or from a local mirror
 * (PROOFPR_BENCH_REAL_SOURCES), then a git bundle holding the parent's tree as a single-commit history,
 * the upstream diff split into its source part and its test part, and the changed files' contents.
 * The bundle and the file contents come from the backtest engine (src/backtest/), shared with `proofpr backtest`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseBundle } from '../../src/backtest/base-bundle.js';
import { changedPaths, fileChanges } from '../../src/backtest/file-changes.js';
import type { FileChange } from '../../src/backtest/replay.js';
import { splitPaths, type BenchCase } from './manifest.js';

export interface Materialized {
  dir: string;
  bundle: string;
  /** The single commit in the bundle (the parent's tree, fixed identity and date). */
  baseCommit: string;
  source: FileChange[];
  test: FileChange[];
  sourceDiff: string;
  testDiff: string;
}

function git(gitDir: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  return execFileSync('git', [`--git-dir=${gitDir}`, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

function has(gitDir: string, rev: string): boolean {
  try {
    git(gitDir, ['cat-file', '-e', `${rev}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}

/** Where to fetch `owner/name` from: a local mirror under PROOFPR_BENCH_REAL_SOURCES, else GitHub. */
export function sourceOf(repo: string, env: NodeJS.ProcessEnv = process.env): string {
  const [owner, name] = repo.split('/') as [string, string];
  const root = env.PROOFPR_BENCH_REAL_SOURCES;
  if (root) {
    for (const d of [join(root, `${owner}+${name}`, 'repo'), join(root, `${owner}+${name}`), join(root, owner, name), join(root, `${name}.git`), join(root, name)]) {
      if (existsSync(d)) return d;
    }
  }
  return `https://github.com/${repo}.git`;
}

/** The bare cache repository holding `c.fix` and `c.parent`. */
export function ensureCommits(cacheRoot: string, c: BenchCase, env: NodeJS.ProcessEnv = process.env): string {
  const bare = join(cacheRoot, 'repos', `${c.repo.replace('/', '+')}.git`);
  if (!existsSync(bare)) {
    mkdirSync(bare, { recursive: true });
    git(bare, ['init', '-q', '--bare']);
    git(bare, ['symbolic-ref', 'HEAD', 'refs/heads/main']);
  }
  if (!has(bare, c.fix) || !has(bare, c.parent)) {
    const src = sourceOf(c.repo, env);
    // A local mirror serves any commit it has; GitHub serves commits by id.
    git(bare, ['-c', 'uploadpack.allowAnySHA1InWant=true', 'fetch', '-q', '--depth=2', src, c.fix]);
    if (!has(bare, c.parent)) git(bare, ['-c', 'uploadpack.allowAnySHA1InWant=true', 'fetch', '-q', '--depth=1', src, c.parent]);
  }
  const parent = git(bare, ['rev-parse', `${c.fix}^1`]).trim();
  if (parent !== c.parent) throw new Error(`${c.id}: ${c.fix} has parent ${parent}, the manifest says ${c.parent}`);
  return bare;
}

export function materialize(cacheRoot: string, c: BenchCase, env: NodeJS.ProcessEnv = process.env): Materialized {
  const bare = ensureCommits(cacheRoot, c, env);
  const dir = join(cacheRoot, 'cases', c.id);
  mkdirSync(dir, { recursive: true });
  const message = `${c.repo} at ${c.parent}, the parent of the upstream fix ${c.fix}\n`;
  const bundle = join(dir, 'parent.bundle');
  const baseCommit = baseBundle(bare, c.parent, message, bundle);
  const paths = changedPaths(bare, c.parent, c.fix);
  const { source, test } = splitPaths(paths, c.tests);
  if (source.length === 0 || test.length === 0) throw new Error(`${c.id}: the upstream diff needs a source part and a test part (source: ${source.length}, test: ${test.length} files)`);
  const diff = (ps: string[]) => git(bare, ['diff', '--no-renames', c.parent, c.fix, '--', ...ps]);
  const sourceDiff = diff(source);
  const testDiff = diff(test);
  writeFileSync(join(dir, 'source.diff'), sourceDiff);
  writeFileSync(join(dir, 'test.diff'), testDiff);
  writeFileSync(join(dir, 'case.json'), `${JSON.stringify({ ...c, baseCommit, source, test }, null, 2)}\n`);
  const changes = (ps: string[]): FileChange[] => fileChanges(bare, c.parent, c.fix, ps);
  return { dir, bundle, baseCommit, source: changes(source), test: changes(test), sourceDiff, testDiff };
}
