import { realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { walkTree } from './walk-tree.js';
import ignore from 'ignore';
import { isSecretFile } from './secret-file.js';

/**
 * What the agent's tools may see of a worktree besides the commit's files: secret-looking files are
 * absent (the same files the sandbox masks), unless `permissions.readable` opts them back in. The run
 * opens the world of its worktree once (open-sandbox.ts) and closes it at clean-up; a worktree no run
 * opened (a test, a second look) hides every secret-looking file.
 */
interface World {
  readable: (rel: string) => boolean;
  /** A disposable copy of a worktree (a clean checkout the harness tests in): its hidden files may be masked on disk. */
  copy?: boolean;
  /** Worktree-relative files the sandbox masks (an empty read-only file bound over each), once the exec is open. */
  sandboxMasked?: ReadonlySet<string>;
  /** Computed on first ask (the evidence's `masked`): secret-looking files of the worktree not opted in. */
  masked?: string[];
}

const worlds = new Map<string, World>();

/** `permissions.readable` (gitignore-style globs): secret-looking paths the agent may read after all. */
export function readableMatcher(readable: readonly string[] = []): (rel: string) => boolean {
  if (readable.length === 0) return () => false;
  const ig = ignore().add(readable.map((g) => g.replace(/^\.\//, '')));
  return (rel) => rel !== '' && ig.ignores(rel);
}

/**
 * Opens the world of a worktree: `readable` (permissions.readable globs) and `opened` (e.g. Read(...)
 * allow rules) name the secret-looking paths it shows after all.
 */
export function openWorld(root: string, opts: { readable?: readonly string[]; opened?: (rel: string) => boolean } = {}): void {
  const globs = readableMatcher(opts.readable);
  const opened = opts.opened;
  worlds.set(root, { readable: opened ? (rel) => globs(rel) || opened(rel) : globs });
}

/**
 * A clean checkout the harness made of a worktree's commit (final, baseline, differential, red-green
 * runs) shares that worktree's world: what is readable there is readable here, nothing else. Closed
 * with closeWorld when the checkout is removed.
 */
export function openCopyWorld(copy: string, of: string): void {
  worlds.set(copy, { readable: worlds.get(of)?.readable ?? (() => false), copy: true });
}

/**
 * Masks the hidden files of a disposable copy on disk, as the sandbox masks the worktree's: each
 * secret-looking file not opted in becomes an empty read-only file, so a test the harness runs there
 * sees what the agent's sandbox shows. Returns the worktree-relative paths masked; a folder that is not
 * a copy opened by openCopyWorld (the agent's own worktree) is never touched.
 */
export function maskCopy(dir: string, cap = 50_000): string[] {
  if (!worlds.get(dir)?.copy) return [];
  const out = hiddenFiles(dir, cap);
  for (const rel of out) {
    const abs = join(dir, rel);
    rmSync(abs, { force: true });
    writeFileSync(abs, '', { mode: 0o444 });
  }
  return out;
}

export function closeWorld(root: string): void {
  const world = worlds.get(root);
  for (const [k, w] of worlds) if (k === root || w === world) worlds.delete(k);
}

/**
 * Records what the sandbox masks in the worktree `root` (worktree-relative files), under `root` and
 * under its realpath (the permission policy asks by realpath). A search the sandbox runs then reads
 * those files empty, so the policy need not refuse it (search-scope.ts).
 */
export function markSandboxMasked(root: string, masked: readonly string[]): void {
  const world = worlds.get(root) ?? { readable: () => false };
  world.sandboxMasked = new Set(masked);
  worlds.set(root, world);
  const real = realpathOr(root);
  if (real !== root) worlds.set(real, world);
}

/** Is worktree-relative `rel` masked by the sandbox of `root`'s run (empty and read-only inside it)? */
export function maskedInSandbox(root: string, rel: string): boolean {
  return worlds.get(root)?.sandboxMasked?.has(rel) ?? false;
}

function realpathOr(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** Is worktree-relative `rel` opted back in by `permissions.readable` for the world of `root`? */
export function readableInWorld(root: string, rel: string): boolean {
  return worlds.get(root)?.readable(rel) ?? false;
}

/** Is worktree-relative `rel` (POSIX separators) absent from the agent's world: a secret-looking file not opted in? */
export function hiddenFromAgent(root: string, rel: string): boolean {
  if (rel === '' || rel === '.') return false;
  return isSecretFile(rel, join(root, rel)) && !readableInWorld(root, rel);
}

/**
 * The worktree's secret-looking files the agent does not see (the evidence's `masked`), worktree-relative
 * and sorted; at most `cap` files are looked at (not in `.git` or `node_modules`, not through symlinks).
 */
export function worldMasked(root: string, cap = 50_000): string[] {
  const world = worlds.get(root);
  if (world?.masked) return world.masked;
  const out = hiddenFiles(root, cap);
  if (world) world.masked = out;
  return out;
}

/** Regular files under `root` hidden from the agent, sorted (not in `.git` or `node_modules`, not through symlinks). */
function hiddenFiles(root: string, cap: number): string[] {
  const out: string[] = [];
  walkTree(
    root,
    ({ rel, dirent }) => {
      if (dirent.isFile() && hiddenFromAgent(root, rel)) out.push(rel);
    },
    { cap, skip: (e) => e.name === '.git' || e.name === 'node_modules' || e.isSymbolicLink() },
  );
  return out.sort();
}
