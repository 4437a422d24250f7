import { dropPrivateStore } from './private-objects.js';
import { realpath, rm } from 'node:fs/promises';
import { git } from './git.js';
import { join } from 'node:path';

/** The lock that serializes mirror fetches and worktree add/move/remove of one repository. */
export function repoLockPath(commonDir: string): string {
  return join(commonDir, 'proofpr.lock');
}

/**
 * Removes a linked worktree, whatever state it is in: `git worktree remove --force --force` (dirty or
 * locked), falling back to deleting the folder; then `git worktree prune` drops stale metadata.
 * Does not take the repository lock itself.
 */
export async function removeWorktreeUnlocked(commonDir: string, path: string): Promise<void> {
  const real = await realpath(path).catch(() => path);
  await git(['worktree', 'remove', '--force', '--force', path], { cwd: commonDir, okCodes: [0, 128] });
  await rm(path, { recursive: true, force: true });
  await dropPrivateStore(real);
  if (real !== path) await dropPrivateStore(path);
  await git(['worktree', 'prune'], { cwd: commonDir, okCodes: [0, 128] });
}
