import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { tempDir } from '../kit/temp.js';
import { writeFiles } from '../kit/verify-files.js';

const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: tmpdir(),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

export function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, env, encoding: 'utf8' }).trim();
}

export function write(root: string, path: string, text: string): void {
  writeFiles(root, { [path]: text });
}

/** Stages and commits the whole working tree; returns the new commit. */
export function commitAll(root: string, message: string): string {
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', message);
  return git(root, 'rev-parse', 'HEAD');
}

/** A real temp repository with `files` committed; returns its root and the base commit. */
export function makeRepo(files: Record<string, string>): { root: string; baseSha: string } {
  const root = tempDir('proofpr-repo-');
  git(root, 'init', '-q', '-b', 'main');
  writeFiles(root, files);
  return { root, baseSha: commitAll(root, 'base') };
}

/** makeRepo(base), then `changes` written over its working tree and left uncommitted, as an agent's edit leaves them. */
export function changedRepo(base: Record<string, string>, changes: Record<string, string>): { root: string; baseSha: string } {
  const repo = makeRepo(base);
  writeFiles(repo.root, changes);
  return repo;
}
