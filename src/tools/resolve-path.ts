import { join, resolve } from 'node:path';
import { isWithin, resolveInRoot } from '../workspace/resolve-in-root.js';
import { readWorktreeGitDirsSync } from '../workspace/worktree-git-dir.js';

export type ResolvedPath = { ok: true; abs: string; rel: string; inRoot: boolean } | { ok: false; message: string };

export interface ResolvePathOptions {
  root: string;
  /** Extra folders readable by Read/Grep (tool-output of the run, ...). Never for writes. */
  readRoots?: string[];
  /** Paths in the linked dependency folders resolve (named through the link, `inRoot`): for reading tools only. */
  linked?: boolean;
}

const gitDirCache = new Map<string, string[]>();

/** The worktree's git dir and common dir (the one tamper-checked reader), cached per root; none when unreadable. */
function gitDirsOf(root: string): string[] {
  const hit = gitDirCache.get(root);
  if (hit) return hit;
  let dirs: string[] = [];
  try {
    const d = readWorktreeGitDirsSync(root);
    if (d && d.gitDir !== join(root, '.git')) dirs = [d.gitDir, d.commonDir];
  } catch {
    dirs = [];
  }
  gitDirCache.set(root, dirs);
  return dirs;
}

/**
 * Resolve a tool's path argument (absolute inside the root, or relative to it) with the same resolver
 * the permission policy uses (symlinks followed, dangling ones included; `~`, NUL and `..` after a
 * missing folder refused), and refuse anything outside the root (unless inside one of `readRoots`) or
 * inside `.git` / a worktree's git dir. The messages are what the model sees.
 */
export function resolvePath(input: string, opts: ResolvePathOptions): ResolvedPath {
  const { root } = opts;
  const r = resolveInRoot(root, input, { gitDirs: gitDirsOf(root), linked: opts.linked === true });
  if (r.ok) return { ok: true, abs: r.abs, rel: r.rel || '.', inRoot: true };
  switch (r.why) {
    case 'empty':
      return { ok: false, message: 'The path is empty. Give a file path relative to the repository root or an absolute path inside it.' };
    case 'git':
      return {
        ok: false,
        message: `Access to "${input}" is refused: files inside .git are off limits to every tool. Inspect the repository with git commands through Bash instead (git status, git log, git diff, git show).`,
      };
    case 'outside':
      for (const extra of opts.readRoots ?? []) {
        const real = resolveInRoot('/', resolve(extra));
        if (real.ok && isWithin(real.abs, r.abs)) return { ok: true, abs: r.abs, rel: r.abs, inRoot: false };
      }
      return {
        ok: false,
        message: `Access to "${input}" is refused: it resolves to ${r.abs}, outside the repository at ${root}. Use a path relative to the repository root, or an absolute path inside it.`,
      };
    case 'home':
      return {
        ok: false,
        message: `Access to "${input}" is refused: "~" is a home directory, outside the repository at ${root}. Use a path relative to the repository root.`,
      };
    case 'nul':
      return { ok: false, message: `Access to ${JSON.stringify(input)} is refused: the path contains a NUL byte.` };
    case 'climb':
      return {
        ok: false,
        message: `Access to "${input}" is refused: it climbs with ".." out of a folder that does not exist. Name the path without "..".`,
      };
    case 'loop':
      return { ok: false, message: `Access to "${input}" is refused: it goes through too many symlinks.` };
  }
}

/** The roots Read and Grep may read besides ctx.root: the run's tool-output folder and ctx.extraReadRoots. */
export function readRootsOf(ctx: { runDir: string; extraReadRoots?: string[] }): string[] {
  return [join(ctx.runDir, 'tool-output'), ...(ctx.extraReadRoots ?? [])];
}
