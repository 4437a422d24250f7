import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { readLinkedDirsSync } from './linked-dirs.js';
import { readWorktreeGitDirsSync } from './worktree-git-dir.js';

/** Why a path was refused; each wrapper (permission policy, file tools) words its own message. */
export type RootRefusal =
  | { ok: false; why: 'empty' | 'nul' | 'home' | 'climb' | 'loop' }
  | { ok: false; why: 'outside'; abs: string }
  | { ok: false; why: 'git'; abs: string };

/** `linked`: the path lies in a dependency folder linked into the worktree (`rel` names it through the link); read-only. */
export type RootResolution = { ok: true; abs: string; rel: string; linked?: true } | RootRefusal;

export interface ResolveInRootOptions {
  /** Folder relative paths start from (default: root). Must be a realpath. */
  cwd?: string;
  /** Git directories outside the root (a worktree's git dir and common dir): refused like `.git`. */
  gitDirs?: readonly string[];
  /**
   * Accept a path in a dependency folder linked into the worktree (node_modules linked from the
   * dependency cache, linked-dirs.ts) for reading: the maintainer's installed dependencies, never written.
   */
  linked?: boolean;
}

/** Is `p` equal to or below `dir`? Both absolute and normalised. */
export function isWithin(dir: string, p: string): boolean {
  const rel = relative(dir, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

const MAX_LINKS = 40;

/**
 * Physical resolution as the kernel does it, one component at a time: a symlink is replaced by its
 * target whether or not the target exists (a dangling link to `/etc/cron.d/x` resolves there, so a
 * write through it is seen for what it is); once a component is missing, the rest is appended as it
 * is, and `..` after a missing component is refused (the kernel would fail there, a lexical join would
 * not). null for `..` after a missing part or a symlink loop.
 */
export function physicalPath(abs: string): { path: string } | { error: 'climb' | 'loop' } {
  const todo = abs.split('/').filter((s) => s !== '' && s !== '.');
  let done: string[] = [];
  let missing = false;
  let hops = 0;
  while (todo.length > 0) {
    const seg = todo.shift() as string;
    if (seg === '..') {
      if (missing) return { error: 'climb' };
      done.pop();
      continue;
    }
    const cur = `/${[...done, seg].join('/')}`;
    if (missing) {
      done.push(seg);
      continue;
    }
    let st;
    try {
      st = lstatSync(cur);
    } catch {
      missing = true;
      done.push(seg);
      continue;
    }
    if (!st.isSymbolicLink()) {
      done.push(seg);
      continue;
    }
    if (++hops > MAX_LINKS) return { error: 'loop' };
    const target = readlinkSync(cur);
    const parts = target.split('/').filter((s) => s !== '' && s !== '.');
    if (isAbsolute(target)) done = [];
    todo.unshift(...parts);
  }
  const path = `/${done.join('/')}`;
  try {
    // Same answer for an existing path; canonical spelling (realpath.native) where the OS has one.
    return { path: realpathSync.native(path) };
  } catch {
    return { path };
  }
}

/**
 * The one path resolver behind the permission policy and the file tools: `p` (absolute, or relative to
 * `cwd`/`root`) resolved physically (symlinks followed, dangling ones included) and required to stay in
 * `root` and out of `.git` (any component) and the given git dirs. `~…` (a home directory to a shell),
 * NUL bytes and `..` after a missing component are refused. `root` must be a realpath.
 */
export function resolveInRoot(root: string, p: string, opts: ResolveInRootOptions = {}): RootResolution {
  if (p.trim() === '') return { ok: false, why: 'empty' };
  if (p.includes('\0')) return { ok: false, why: 'nul' };
  if (p.startsWith('~')) return { ok: false, why: 'home' };
  const start = isAbsolute(p) ? p : `${opts.cwd ?? root}/${p}`;
  const phys = physicalPath(start);
  if ('error' in phys) return { ok: false, why: phys.error };
  const abs = phys.path;
  const inRoot = isWithin(root, abs);
  const rel = inRoot ? relative(root, abs) : '';
  const segs = rel === '' ? [] : rel.split(sep);
  if ((inRoot && segs.includes('.git')) || (opts.gitDirs ?? []).some((g) => isWithin(g, abs))) return { ok: false, why: 'git', abs };
  if (!inRoot) {
    const through = opts.linked ? linkedRel(root, abs) : undefined;
    return through === undefined ? { ok: false, why: 'outside', abs } : { ok: true, abs, rel: through, linked: true };
  }
  return { ok: true, abs, rel: segs.join('/') };
}

/** `abs` named through the worktree's linked dependency folder it lies in (`node_modules/pkg/x.js`), else undefined. */
function linkedRel(root: string, abs: string): string | undefined {
  let gitDir: string | undefined;
  try {
    gitDir = readWorktreeGitDirsSync(root)?.gitDir;
  } catch {
    return undefined;
  }
  for (const l of gitDir ? readLinkedDirsSync(gitDir) : []) {
    if (isWithin(l.target, abs)) return [l.name, ...relative(l.target, abs).split(sep)].filter(Boolean).join('/');
  }
  return undefined;
}
