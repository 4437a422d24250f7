/**
 * Committed repositories for end-to-end tests: a git repository (one commit on main) in a new temp folder
 * (test/kit/temp.ts), from files, a copy of a project, or both.
 */
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { tempDir } from './temp.js';

export type Files = Record<string, string>;

/** A repository and the private folder around it (run folder, worktrees, a home). */
export interface TempRepo {
  dir: string;
  work: string;
}

export function git(cwd: string, args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  });
}

/** Writes `files` (path → content) under `dir`, making their folders. */
export function writeFiles(dir: string, files: Files): void {
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), t);
  }
}

/** Makes `dir` a git repository whose one commit on main holds everything in it (but what it ignores). */
export function commitAll(dir: string, message = 'initial'): void {
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', message]);
}

export interface RepoOptions {
  /** A folder to copy in first (a project under test/e2e/projects, the demo). */
  copyOf?: string;
  /** Files to write (over the copy). */
  files?: Files;
  /** Link a project's node_modules in (ignored by git, as `npm ci` would leave it): true = this repository's, or that project root's. */
  nodeModules?: boolean | string;
  /** The temp folder's name prefix and parent folder (tempDir's). */
  prefix?: string;
  parent?: string;
  message?: string;
}

/** A committed repository (one commit on main) at `work/repo` in a new temp folder. */
export function tempRepo(o: RepoOptions): TempRepo {
  const work = tempDir(o.prefix ?? 'proofpr-e2e-', o.parent);
  const dir = join(work, 'repo');
  if (o.copyOf) cpSync(o.copyOf, dir, { recursive: true });
  else mkdirSync(dir);
  writeFiles(dir, o.files ?? {});
  if (o.nodeModules) symlinkSync(resolve(o.nodeModules === true ? '.' : o.nodeModules, 'node_modules'), join(dir, 'node_modules'));
  commitAll(dir, o.message);
  return { dir, work };
}
