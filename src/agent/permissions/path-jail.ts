import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

export interface JailOptions {
  /** Git directories outside the worktree (a worktree's gitdir and common dir): never readable or writable. */
  gitDirs?: string[];
  /** 'write' additionally refuses `.github/workflows/` unless `writableWorkflows`. */
  access?: 'read' | 'write';
  writableWorkflows?: boolean;
  /** Directory relative paths are resolved against (default: root). */
  cwd?: string;
}

export type JailResult =
  | { ok: true; abs: string; rel: string }
  | { ok: false; reason: string };

function realOrNull(p: string): string | null {
  try {
    return realpathSync.native(p);
  } catch {
    return null;
  }
}

/** Physical resolution: realpath of the longest existing prefix, then the rest (no `..` allowed after a missing part). */
function physical(abs: string): string | null {
  const whole = realOrNull(abs);
  if (whole !== null) return whole;
  const parts = abs.split('/');
  for (let i = parts.length - 1; i > 0; i--) {
    const head = parts.slice(0, i).join('/') || '/';
    const real = realOrNull(head);
    if (real === null) continue;
    const rest = parts.slice(i).filter((s) => s !== '' && s !== '.');
    if (rest.includes('..')) return null;
    return join(real, ...rest);
  }
  return null;
}

function within(base: string, p: string): boolean {
  const rel = relative(base, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Resolve `p` (absolute, or relative to cwd/root) and require it to stay inside `root` after following
 * symlinks (for a file that does not exist yet, via its nearest existing parent). `.git` internals are
 * refused for reading and writing; `.github/workflows/` is refused for writing unless configured.
 * `root` must already be a realpath.
 */
export function resolveInside(root: string, p: string, opts: JailOptions = {}): JailResult {
  if (p.includes('\0')) return { ok: false, reason: `path "${p}" contains a NUL byte` };
  if (p.startsWith('~')) return { ok: false, reason: `path "${p}" is in a home directory, outside the worktree` };
  const base = opts.cwd ?? root;
  const abs = isAbsolute(p) ? p : `${base}/${p}`;
  const real = physical(abs);
  if (real === null) return { ok: false, reason: `path "${p}" climbs with ".." out of a directory that does not exist` };
  if (!within(root, real)) return { ok: false, reason: `path "${p}" resolves to ${real}, outside the worktree (symlinks and ".." are followed)` };
  for (const g of opts.gitDirs ?? []) {
    if (within(g, real)) return { ok: false, reason: `path "${p}" is inside git's own directory; inspect git only through allowed git commands (git status, git diff, git log)` };
  }
  const rel = relative(root, real);
  const segs = rel === '' ? [] : rel.split(sep);
  if (segs.includes('.git')) {
    return { ok: false, reason: `path "${p}" is inside .git, which no tool may read or write; use git status / git diff / git log instead` };
  }
  if (opts.access === 'write' && !opts.writableWorkflows && segs[0] === '.github' && segs[1] === 'workflows') {
    return { ok: false, reason: `path "${p}" is under .github/workflows/, which is not writable (set permissions.writable_workflows: true in .github/proofpr.yml to allow it)` };
  }
  return { ok: true, abs: real, rel: segs.join('/') };
}
