import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pino, { type Logger } from 'pino';
import { tempDir } from '../kit/temp.js';

export { tempDir };

/** An environment with no git identity and no global config, like a fresh server. */
export function bareEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...extra };
}

const ID = {
  GIT_AUTHOR_NAME: 'Fixture',
  GIT_AUTHOR_EMAIL: 'fixture@example.test',
  GIT_COMMITTER_NAME: 'Fixture',
  GIT_COMMITTER_EMAIL: 'fixture@example.test',
};

/** Runs git in the test's own clean environment (with a fixture identity) and returns trimmed stdout. */
export function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: bareEnv(ID), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
}

export interface Remote {
  root: string;
  bare: string;
  url: string;
  /** Commits files on `branch` of the remote through a throw-away clone; returns the new sha. */
  commit(branch: string, files: Record<string, string>, message?: string): string;
  sha(ref: string): string;
  cleanup(): void;
}

/** A bare repository on disk (served over file://, partial clone allowed) with one commit on main. */
export function makeRemote(files: Record<string, string> = { 'README.md': '# fixture\n', 'src/a.txt': 'one\n' }): Remote {
  const root = tempDir();
  const seed = join(root, 'seed');
  mkdirSync(seed);
  sh(seed, 'init', '-q', '-b', 'main');
  writeFiles(seed, files);
  sh(seed, 'add', '-A');
  sh(seed, 'commit', '-q', '-m', 'initial');
  const bare = join(root, 'remote.git');
  sh(root, 'clone', '-q', '--bare', seed, bare);
  sh(bare, 'config', 'uploadpack.allowFilter', 'true');
  sh(bare, 'config', 'uploadpack.allowAnySHA1InWant', 'true');
  rmSync(seed, { recursive: true, force: true });
  const url = pathToFileURL(bare).href;
  let n = 0;
  return {
    root,
    bare,
    url,
    commit(branch, more, message = 'change') {
      const work = join(root, `work-${n++}`);
      sh(root, 'clone', '-q', bare, work);
      const has = sh(work, 'ls-remote', 'origin', `refs/heads/${branch}`) !== '';
      sh(work, 'checkout', '-q', ...(has ? [branch] : ['-b', branch]));
      writeFiles(work, more);
      sh(work, 'add', '-A');
      sh(work, 'commit', '-q', '-m', message);
      sh(work, 'push', '-q', 'origin', `HEAD:refs/heads/${branch}`);
      const sha = sh(work, 'rev-parse', 'HEAD');
      rmSync(work, { recursive: true, force: true });
      return sha;
    },
    sha: (ref) => sh(bare, 'rev-parse', ref),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** A logger that keeps every line it writes, to check what reached the logs. */
export function captureLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = pino({ level: 'trace' }, { write: (s: string) => void lines.push(s) });
  return { logger, lines };
}
