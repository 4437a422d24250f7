import { createHash } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './git.js';
import { worktreeGitEnv } from './worktree-git-dir.js';
import { removeWorktreeUnlocked } from './worktree-remove.js';

/**
 * Warm worktrees: instead of deleting a finished run's worktree, park it
 * detached under `<worktreesDir>/.pool/<repo>/`; the next run of the same repository moves it into place
 * and resets it (`checkout -f` + `clean -ffdx`), which costs a fraction of writing every file again.
 * Callers hold the repository lock around claim and release.
 */
export function poolDir(worktreesDir: string, commonDir: string): string {
  return join(worktreesDir, '.pool', createHash('sha1').update(commonDir).digest('hex').slice(0, 12));
}

async function listPool(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).sort();
}

/** Moves a parked worktree to `path` and returns true, or false when the pool is empty. */
export async function claimPooled(worktreesDir: string, commonDir: string, path: string): Promise<boolean> {
  const dir = poolDir(worktreesDir, commonDir);
  for (const name of await listPool(dir)) {
    const from = join(dir, name);
    const moved = await git(['worktree', 'move', from, path], { cwd: commonDir, okCodes: [0, 128] });
    if (moved.code === 0) return true;
    await removeWorktreeUnlocked(commonDir, from); // broken entry: drop it and try the next
  }
  return false;
}

/** Parks the worktree at `path` (detached, so its branch is free) unless the pool already holds `max`. */
export async function releaseToPool(worktreesDir: string, commonDir: string, path: string, max: number, gitDir?: string): Promise<boolean> {
  const dir = poolDir(worktreesDir, commonDir);
  if ((await listPool(dir)).length >= max) return false;
  await mkdir(dir, { recursive: true });
  if (!gitDir) return false; // without the recorded git dir the worktree's `.git` would have to be trusted
  const detached = await git(['checkout', '--quiet', '--detach'], { cwd: path, env: worktreeGitEnv(path, gitDir), okCodes: [0, 1, 128] });
  if (detached.code !== 0) return false;
  const to = join(dir, `${Date.now().toString(36)}-${process.pid}-${Math.random().toString(36).slice(2, 6)}`);
  const moved = await git(['worktree', 'move', path, to], { cwd: commonDir, okCodes: [0, 128] });
  return moved.code === 0;
}
