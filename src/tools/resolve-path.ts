import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export type ResolvedPath =
  | { ok: true; abs: string; rel: string; inRoot: boolean }
  | { ok: false; message: string };

export interface ResolvePathOptions {
  root: string;
  /** Extra folders readable by Read/Grep (tool-output of the run, ...). Never for writes. */
  readRoots?: string[];
}

/** realpath of the nearest existing ancestor, with the missing tail appended (symlinks in the tail can't exist yet). */
export function realpathLoose(abs: string): string {
  const tail: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      return join(realpathSync(cur), ...tail.reverse());
    } catch {
      const parent = dirname(cur);
      if (parent === cur) return abs;
      tail.push(basename(cur));
      cur = parent;
    }
  }
}

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

const gitDirCache = new Map<string, string | undefined>();

/** The git dir a worktree's `.git` file points to (`gitdir: …`), realpath'd; undefined when `.git` is a folder or absent. */
export function linkedGitDir(root: string): string | undefined {
  if (gitDirCache.has(root)) return gitDirCache.get(root);
  let found: string | undefined;
  const dotGit = join(root, '.git');
  try {
    if (existsSync(dotGit) && statSync(dotGit).isFile()) {
      const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
      if (m?.[1]) found = realpathLoose(resolve(root, m[1].trim()));
    }
  } catch {
    found = undefined;
  }
  gitDirCache.set(root, found);
  return found;
}

/**
 * Resolve a tool's path argument (absolute inside the root, or relative to it) with realpath, and refuse
 * anything outside the root (unless inside one of `readRoots`) or inside `.git` / a worktree's git dir.
 * The messages are what the model sees.
 */
export function resolvePath(input: string, opts: ResolvePathOptions): ResolvedPath {
  const { root } = opts;
  if (input.trim() === '') return { ok: false, message: 'The path is empty. Give a file path relative to the repository root or an absolute path inside it.' };
  const abs = realpathLoose(resolve(root, input));
  const gitDir = linkedGitDir(root);
  const inRoot = isInside(abs, root);
  const inGit =
    (inRoot && relative(root, abs).split(sep).includes('.git')) || (gitDir !== undefined && isInside(abs, gitDir));
  if (inGit) {
    return {
      ok: false,
      message: `Access to "${input}" is refused: files inside .git are off limits to every tool. Inspect the repository with git commands through Bash instead (git status, git log, git diff, git show).`,
    };
  }
  if (inRoot) return { ok: true, abs, rel: relative(root, abs) || '.', inRoot: true };
  for (const extra of opts.readRoots ?? []) {
    const real = realpathLoose(resolve(extra));
    if (isInside(abs, real)) return { ok: true, abs, rel: abs, inRoot: false };
  }
  return {
    ok: false,
    message: `Access to "${input}" is refused: it resolves to ${abs}, outside the repository at ${root}. Use a path relative to the repository root, or an absolute path inside it.`,
  };
}

/** The roots Read and Grep may read besides ctx.root: the run's tool-output folder and ctx.extraReadRoots. */
export function readRootsOf(ctx: { runDir: string; extraReadRoots?: string[] }): string[] {
  return [join(ctx.runDir, 'tool-output'), ...(ctx.extraReadRoots ?? [])];
}
