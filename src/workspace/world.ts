import { realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { walkTree } from './walk-tree.js';
import ignore from 'ignore';
import { maskedContent } from '../secrets/placeholder.js';
import { secretStringsIn } from '../secrets/files.js';
import { forgetMaskedSecrets, learnMaskedSecrets } from '../secrets/known-values.js';
import { readRegularFile } from './special-file.js';
import { copyMaskedGlobs, dropMaskedGlobs, isSecretFile, setMaskedGlobs } from './secret-file.js';

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
 * allow rules) name the secret-looking paths it shows after all; `masked` (permissions.masked globs)
 * names paths it hides whatever they hold.
 */
export function openWorld(
  root: string,
  opts: { readable?: readonly string[]; opened?: (rel: string) => boolean; masked?: readonly string[] } = {},
): void {
  const globs = readableMatcher(opts.readable);
  const opened = opts.opened;
  worlds.set(root, { readable: opened ? (rel) => globs(rel) || opened(rel) : globs });
  setMaskedGlobs(root, opts.masked ?? []);
}

/**
 * A clean checkout the harness made of a worktree's commit (final, baseline, differential, red-green
 * runs) shares that worktree's world: what is readable there is readable here, nothing else. Closed
 * with closeWorld when the checkout is removed.
 */
export function openCopyWorld(copy: string, of: string): void {
  worlds.set(copy, { readable: worlds.get(of)?.readable ?? (() => false), copy: true });
  copyMaskedGlobs(copy, of);
}

/**
 * Masks the hidden files of a disposable copy on disk, as the sandbox masks the worktree's: each file
 * whose content matches a secret rule (or named by permissions.masked), not opted in, becomes a read-only
 * file holding maskedContent(rel), so a test the harness runs there sees what the agent's sandbox shows.
 * Each placeholder's atime is set to the epoch and its mtime to now: a read of it moves the atime
 * (relatime updates an atime older than the mtime), which readMaskedFiles tells. Returns the
 * worktree-relative paths masked; a folder that is not a copy opened by openCopyWorld (the agent's own
 * worktree) is never touched.
 */
export function maskCopy(dir: string, cap = 50_000): string[] {
  if (!worlds.get(dir)?.copy) return [];
  const out = hiddenFiles(dir, cap);
  const now = new Date();
  for (const rel of out) {
    const abs = join(dir, rel);
    rmSync(abs, { force: true });
    writeFileSync(abs, maskedContent(rel), { mode: 0o444 });
    utimesSync(abs, new Date(0), now);
  }
  return out;
}

/** Of the placeholders maskCopy (or maskedSources) wrote, those read since: their atime moved off the epoch. */
export function readPlaceholders(files: ReadonlyArray<{ rel: string; abs: string }>): string[] {
  const out: string[] = [];
  for (const f of files) {
    const st = statSync(f.abs, { throwIfNoEntry: false });
    if (st && st.atimeMs > 0) out.push(f.rel);
  }
  return out;
}

export function closeWorld(root: string): void {
  const world = worlds.get(root);
  for (const [k, w] of worlds)
    if (k === root || w === world) {
      worlds.delete(k);
      dropMaskedGlobs(k);
      forgetMaskedSecrets(k);
    }
  dropMaskedGlobs(root);
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
  if (world) {
    world.masked = out;
    // The run's redactor and commit gate learn what the masked files hold (copies are the same secret).
    if (!world.copy)
      learnMaskedSecrets(
        root,
        out.flatMap((rel) => secretsOf(root, rel)),
      );
  }
  return out;
}

/** The secret strings a masked file holds (the matched credentials; none for a binary keystore). */
function secretsOf(root: string, rel: string): string[] {
  try {
    return secretStringsIn(rel, readRegularFile(join(root, rel), 256 * 1024, { follow: true }));
  } catch {
    return [];
  }
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
