import { readFileSync } from 'node:fs';
import { lstat, readFile, realpath, stat, symlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { DEPENDENCY_DIRS } from './dependency-dirs.js';
import { git } from './git.js';

/** File in the worktree's git dir listing the dependency links (the sandbox cannot write there). */
export const LINKED_FILE = 'proofpr-linked.json';

/**
 * File in the worktree's git dir: the base's install, recorded after setup and before the agent ran (the
 * dependency links and the dependency folders setup installed in the worktree, each with the folder it
 * resolved to then). The harness's clean checkouts link exactly these (pristine-checkout.ts).
 */
export const BASE_INSTALL_FILE = 'proofpr-base-install.json';

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

/**
 * Dependency folders installed inside the worktree itself (setup.command ran there, e.g. `npm ci` in the
 * App's worktree) and ignored by git, as absolute paths: read-only for the agent (sandbox-mounts.ts) and
 * part of the base's install (recordBaseInstall). A link (a linked folder) is not one: it is in LINKED_FILE.
 */
export async function installedDependencyDirs(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of DEPENDENCY_DIRS) {
    const abs = join(root, name);
    if (!(await lstat(abs).catch(() => undefined))?.isDirectory()) continue;
    const ignored = await git(['check-ignore', '-q', '--', `${name}/`], { cwd: root, okCodes: [0, 1, 128] });
    if (ignored.code === 0) out.push(abs);
  }
  return out;
}

/**
 * Records the base's install in the worktree's git dir (BASE_INSTALL_FILE), once setup has run and before
 * the agent does: the dependency links, and the dependency folders installed in the worktree with the
 * folder each resolves to. The harness's clean checkouts link these and nothing else, so a folder the
 * agent creates later (an ignored `venv/` holding a corrected copy of a module) never reaches a verdict,
 * whatever its name.
 */
export async function recordBaseInstall(worktree: string, gitDir: string): Promise<LinkedDir[]> {
  const linked = await readLinkedDirs(gitDir);
  const record: LinkedDir[] = [...linked];
  for (const abs of await installedDependencyDirs(worktree)) {
    const name = basename(abs);
    if (linked.some((l) => l.name === name)) continue;
    record.push({ name, target: await realpath(abs) });
  }
  await writeFile(join(gitDir, BASE_INSTALL_FILE), JSON.stringify(record));
  return record;
}

/** The base's install recordBaseInstall wrote for a worktree's git dir; undefined when none was recorded. */
export async function readBaseInstall(gitDir: string): Promise<LinkedDir[] | undefined> {
  const text = await readFile(join(gitDir, BASE_INSTALL_FILE), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    return parseLinked(text);
  } catch {
    return [];
  }
}
