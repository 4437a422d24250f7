import { spawn } from 'node:child_process';
import { git } from '../../../workspace/git.js';
import { harnessGitEnv } from '../../../workspace/harness-git-env.js';

/** One commit's tree, read from git (never from a worktree the agent wrote). */
export interface CommitTree {
  sha: string;
  /** Every path the commit holds (files and symlinks; forward slashes). */
  paths: Set<string>;
  /** Texts of the given paths (missing or unreadable ones are absent); cached. */
  read(paths: readonly string[]): Promise<Map<string, string>>;
  /** Text of one path, or undefined. */
  text(path: string): Promise<string | undefined>;
}

export interface TreeSource {
  root: string;
  gitDir?: string;
  /** The environment of a temporary index (withTempIndex), to read a tree written from the worktree. */
  env?: Record<string, string>;
}

const READ_MAX = 2 * 1024 * 1024;

function env(src: TreeSource): Record<string, string> {
  return { ...(src.gitDir ? { GIT_DIR: src.gitDir } : {}), ...src.env };
}

/** Blob texts for `sha:path` specs, through one `git cat-file --batch`. */
async function catFiles(src: TreeSource, sha: string, paths: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (paths.length === 0) return out;
  const child = spawn('git', ['cat-file', '--batch'], {
    cwd: src.root,
    env: { ...harnessGitEnv(), ...env(src) },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (b: Buffer) => chunks.push(b));
  child.stdin.on('error', () => undefined);
  child.stdin.end(paths.map((p) => `${sha}:${p}`).join('\n') + '\n');
  await new Promise<void>((resolve) => child.on('close', () => resolve()));
  const buf = Buffer.concat(chunks);
  let at = 0;
  for (const p of paths) {
    const nl = buf.indexOf(10, at);
    if (nl < 0) break;
    const head = buf.subarray(at, nl).toString('utf8');
    at = nl + 1;
    const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(head);
    if (!m) continue; // "<spec> missing"
    const size = Number(m[2]);
    if (m[1] === 'blob' && size <= READ_MAX) out.set(p, buf.subarray(at, at + size).toString('utf8'));
    at += size + 1;
  }
  return out;
}

/** The commit's tree as a CommitTree. */
export async function commitTree(src: TreeSource, sha: string): Promise<CommitTree> {
  const ls = await git(['ls-tree', '-r', '-z', '--name-only', sha], {
    cwd: src.root,
    env: env(src),
    config: { 'core.quotePath': 'false' },
  });
  const paths = new Set(ls.stdout.split('\0').filter(Boolean));
  const cache = new Map<string, string | undefined>();
  const read = async (want: readonly string[]): Promise<Map<string, string>> => {
    const missing = [...new Set(want)].filter((p) => !cache.has(p) && paths.has(p));
    const got = await catFiles(src, sha, missing);
    for (const p of missing) cache.set(p, got.get(p));
    const out = new Map<string, string>();
    for (const p of want) {
      const t = cache.get(p);
      if (t !== undefined) out.set(p, t);
    }
    return out;
  };
  return { sha, paths, read, text: async (p) => (await read([p])).get(p) };
}

/** `a/b/../c` → `a/c`; undefined when it leaves the repository. */
export function normalizePath(p: string): string | undefined {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

export const dirOf = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
export const joinPath = (dir: string, p: string): string | undefined => normalizePath(dir ? `${dir}/${p}` : p);
