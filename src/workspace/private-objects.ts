import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The private object store of one worktree (one run): where the harness's `git add`, `write-tree` and
 * `commit-tree` write (withTempIndex), so the worktree's content never enters the repository's shared
 * store unless it is committed (keepObjects). It lives outside the repository, for as long as the
 * worktree: the trees hashed during the run stay readable (the verifier diffs them), and the store is
 * removed with the worktree (removeWorktreeUnlocked). Keyed by the worktree root and by its git dir.
 */
const stores = new Map<string, string>();

/** The store of the worktree at `root` (git dir `gitDir`), made on first use. */
export async function privateStore(root: string, gitDir: string): Promise<string> {
  const hit = stores.get(gitDir) ?? stores.get(root);
  if (hit) return hit;
  const dir = await mkdtemp(join(tmpdir(), 'proofpr-objects-'));
  stores.set(gitDir, dir);
  stores.set(root, dir);
  return dir;
}

/** Commands that only read objects: these may see the private store (as an alternate); nothing that writes does. */
const READERS = new Set(['diff-tree', 'ls-tree', 'cat-file', 'rev-parse', 'diff', 'show']);

/** The private store a read-only git call in `cwd` (or on git dir `gitDir`) should also read from. */
export function privateStoreFor(command: string | undefined, cwd: string, gitDir: string | undefined): string | undefined {
  if (!command || !READERS.has(command)) return undefined;
  return (gitDir !== undefined ? stores.get(gitDir) : undefined) ?? stores.get(cwd);
}

/** Removes the store of the worktree at `path` (its objects were copied out when committed). */
export async function dropPrivateStore(path: string): Promise<void> {
  const dir = stores.get(path);
  if (!dir) return;
  for (const [k, v] of [...stores.entries()]) if (v === dir) stores.delete(k);
  await rm(dir, { recursive: true, force: true });
}
