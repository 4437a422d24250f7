import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { tempDir } from '../kit/temp.js';

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
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** A real temp repository with `files` committed; returns its root and the base commit. */
export function makeRepo(files: Record<string, string>): { root: string; baseSha: string } {
  const root = tempDir('proofpr-repo-');
  git(root, 'init', '-q', '-b', 'main');
  for (const [p, t] of Object.entries(files)) write(root, p, t);
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'base');
  return { root, baseSha: git(root, 'rev-parse', 'HEAD') };
}
