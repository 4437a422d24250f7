import { createHash, randomBytes } from 'node:crypto';
import { cp, lstat, mkdir, readdir, readFile, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LINKED_FILE, readLinkedDirs } from './linked-dirs.js';

/** What an installed dependency folder depends on: the files that decide its content, the command, the platform. */
export interface DependencyKeyInput {
  /** The install command (`npm ci`). */
  command: string;
  /** The folder it fills, at the worktree's top level (`node_modules`). */
  folder: string;
  /** [name, content] of the lock file and the package manager's config files that exist. */
  files: Array<[string, Buffer]>;
}

/** One entry: `<cacheDir>/<key>/<folder>` with `entry.json` (written last: an entry without it is unfinished). */
export interface EntryMeta {
  key: string;
  command: string;
  folder: string;
  files: string[];
  bytes: number;
  createdAt: string;
}

export const ENTRY_FILE = 'entry.json';

/**
 * sha256 of the lock file(s), the install command, the folder, and the platform the installed files
 * were built for (OS, CPU, Node's module ABI: native addons differ).
 */
export function dependencyCacheKey(input: DependencyKeyInput): string {
  const h = createHash('sha256');
  const facts = {
    v: 1,
    command: input.command,
    folder: input.folder,
    platform: process.platform,
    arch: process.arch,
    abi: process.versions.modules,
  };
  h.update(JSON.stringify(facts));
  for (const [name, content] of [...input.files].sort((a, b) => a[0].localeCompare(b[0]))) {
    h.update(`\0${name}\0${createHash('sha256').update(content).digest('hex')}`);
  }
  return h.digest('hex');
}

async function appendLinked(gitDir: string, name: string, target: string): Promise<void> {
  const list = (await readLinkedDirs(gitDir)).filter((l) => l.name !== name);
  await writeFile(join(gitDir, LINKED_FILE), JSON.stringify([...list, { name, target }]));
}

export async function readMeta(entry: string): Promise<EntryMeta | undefined> {
  try {
    return JSON.parse(await readFile(join(entry, ENTRY_FILE), 'utf8')) as EntryMeta;
  } catch {
    return undefined;
  }
}

/**
 * A finished entry for `key`: `<worktree>/<folder>` becomes a symlink to it, recorded with the
 * worktree's linked folders (so the sandbox binds it read-only, git and the tree hash leave it out,
 * the final run's clean checkout borrows it). The entry's use time is touched for `proofpr gc`.
 * False when there is no entry, or the worktree already has that folder.
 */
export async function restoreDependencies(
  cacheDir: string,
  key: string,
  worktree: string,
  gitDir: string,
  folder: string,
): Promise<boolean> {
  const entry = join(cacheDir, key);
  const meta = await readMeta(entry);
  if (!meta || meta.folder !== folder || !(await stat(join(entry, folder)).catch(() => undefined))?.isDirectory()) return false;
  if (await lstat(join(worktree, folder)).catch(() => undefined)) return false;
  await symlink(join(entry, folder), join(worktree, folder), 'dir');
  await appendLinked(gitDir, folder, join(entry, folder));
  const now = new Date();
  await utimes(join(entry, ENTRY_FILE), now, now).catch(() => undefined);
  return true;
}

async function sizeOf(p: string): Promise<number> {
  const s = await lstat(p);
  if (!s.isDirectory()) return s.size;
  let n = 0;
  for (const e of await readdir(p)) n += await sizeOf(join(p, e));
  return n;
}

/**
 * After a successful install: `<worktree>/<folder>` moves into the cache as the entry for `key` (a
 * rename; a copy across file systems), then is restored as a link, so this run uses exactly what the
 * next one will. Two runs racing for one key: the first finished entry wins, the other's copy goes.
 * False (and the folder left in place) when the worktree has no such folder.
 */
export async function saveDependencies(
  cacheDir: string,
  key: string,
  worktree: string,
  gitDir: string,
  input: Omit<DependencyKeyInput, 'files'> & { files: string[] },
): Promise<boolean> {
  const from = join(worktree, input.folder);
  const st = await lstat(from).catch(() => undefined);
  if (!st?.isDirectory()) return false;
  await mkdir(cacheDir, { recursive: true });
  const tmp = join(cacheDir, `.tmp-${randomBytes(6).toString('hex')}`);
  await mkdir(tmp);
  try {
    try {
      await rename(from, join(tmp, input.folder));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
      await cp(from, join(tmp, input.folder), { recursive: true, verbatimSymlinks: true });
      await rm(from, { recursive: true, force: true });
    }
    const meta: EntryMeta = {
      key,
      command: input.command,
      folder: input.folder,
      files: input.files,
      bytes: await sizeOf(join(tmp, input.folder)),
      createdAt: new Date().toISOString(),
    };
    await writeFile(join(tmp, ENTRY_FILE), JSON.stringify(meta, null, 2));
    await rename(tmp, join(cacheDir, key)).catch(async (e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOTEMPTY' && e.code !== 'EEXIST') throw e;
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return restoreDependencies(cacheDir, key, worktree, gitDir, input.folder);
}
