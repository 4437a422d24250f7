import { readFileSync } from 'node:fs';
import { lstat, readFile, realpath, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './git.js';

/** File in the worktree's git dir listing the dependency links (the sandbox cannot write there). */
export const LINKED_FILE = 'proofpr-linked.json';

export interface LinkedDir {
  /** Top-level name in the worktree (`node_modules`). */
  name: string;
  /** Realpath of the folder in the source checkout the link points at. */
  target: string;
}

const SIMPLE = /^[A-Za-z0-9._-]+$/;

/**
 * True when `<source>/<name>` is an installed folder git leaves alone: ignored, or (a `node_modules`
 * that is itself a symlink, which git sees as a file: `node_modules/` in .gitignore does not match it)
 * an untracked symlink.
 */
async function installedHere(source: string, name: string): Promise<boolean> {
  const link = (await lstat(join(source, name))).isSymbolicLink();
  const ignored = await git(['check-ignore', '-q', '--', link ? name : `${name}/`], { cwd: source, okCodes: [0, 1, 128] });
  if (ignored.code === 0) return true;
  if (!link) return false;
  const tracked = await git(['ls-files', '-z', '--', name], { cwd: source, okCodes: [0, 128] });
  return tracked.code === 0 && tracked.stdout === '';
}

/**
 * For each name that exists as a folder at the source checkout's top level and is ignored by git
 * there (or is an untracked symlink to a folder), puts a symlink at `<worktree>/<name>` pointing at it (dependencies installed before the run,
 * e.g. `npm ci` in the Action). Names already present in the worktree are left alone. A bare
 * repository (a mirror) has no checkout: nothing is linked. The list is recorded in the git dir so the
 * tree hash and commits leave the links out and the sandbox keeps their targets visible.
 */
export async function linkDependencyDirs(
  repoDir: string,
  worktree: string,
  gitDir: string,
  names: readonly string[],
): Promise<LinkedDir[]> {
  const linked: LinkedDir[] = [];
  const top = names.length ? await git(['rev-parse', '--show-toplevel'], { cwd: repoDir, okCodes: [0, 128] }) : undefined;
  const source = top?.code === 0 ? top.stdout.trim() : '';
  for (const name of source ? names : []) {
    if (!SIMPLE.test(name) || name === '.' || name === '..' || name.toLowerCase() === '.git') continue;
    const from = join(source, name);
    if (!(await stat(from).catch(() => undefined))?.isDirectory()) continue;
    if (!(await installedHere(source, name))) continue;
    const at = join(worktree, name);
    if (await lstat(at).catch(() => undefined)) continue;
    const target = await realpath(from);
    await symlink(target, at, 'dir');
    linked.push({ name, target });
  }
  await writeFile(join(gitDir, LINKED_FILE), JSON.stringify(linked));
  return linked;
}

function parseLinked(text: string): LinkedDir[] {
  const list = JSON.parse(text) as unknown;
  if (!Array.isArray(list)) return [];
  return list.flatMap((l: { name?: unknown; target?: unknown }) =>
    typeof l.name === 'string' && typeof l.target === 'string' ? [{ name: l.name, target: l.target }] : [],
  );
}

/** The links recorded for a worktree's git dir (empty when none). */
export async function readLinkedDirs(gitDir: string): Promise<LinkedDir[]> {
  try {
    return parseLinked(await readFile(join(gitDir, LINKED_FILE), 'utf8'));
  } catch {
    return [];
  }
}

/** readLinkedDirs, synchronously (the path resolver). */
export function readLinkedDirsSync(gitDir: string): LinkedDir[] {
  try {
    return parseLinked(readFileSync(join(gitDir, LINKED_FILE), 'utf8'));
  } catch {
    return [];
  }
}
