import { lstat, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { silentLogger } from '../../../log.js';
import { DEPENDENCY_DIRS } from '../../../workspace/dependency-dirs.js';
import { git } from '../../../workspace/git.js';
import { closeWorld, openCopyWorld } from '../../../workspace/world.js';

/** Installed dependency folders (ignored by git) a clean checkout borrows from the agent's worktree. */
export { DEPENDENCY_DIRS };

export interface PristineOptions {
  /** The agent's worktree: its git dir holds the commit, its dependency folders are linked. */
  root: string;
  gitDir?: string;
  sha: string;
  /** Folder for the checkout; must be writable inside the sandbox (the exec's TMPDIR). */
  scratchDir: string;
  /**
   * Leave the repository at `root` untouched (doctor only inspects it): a standalone clone sharing its
   * objects (`git clone --shared`, read-only on the source) instead of a worktree registered in it, so
   * nothing is added to its `git worktree list` even when the process is killed mid-run.
   */
  standalone?: boolean;
  logger?: Logger;
}

/**
 * Runs `fn` in a clean detached checkout of `sha` (`git worktree add --detach`, hooks off): only what
 * the commit holds, nothing ignored or untracked from the agent's worktree, plus links to the
 * dependency folders the agent's worktree has (node_modules, .venv, … as linked or installed for the
 * agent) where the commit has none. The checkout shares the agent's world (world.ts): a test run there
 * masks the same secret-looking files the agent's sandbox masks (harness-run.ts). The checkout is always removed.
 */
export async function withPristineCheckout<T>(opts: PristineOptions, fn: (dir: string) => Promise<T>): Promise<T> {
  const log = opts.logger ?? silentLogger;
  const g = { cwd: opts.root, ...(opts.gitDir ? { env: { GIT_DIR: opts.gitDir } } : {}), config: { 'core.hooksPath': '/dev/null' } };
  const tmp = await mkdtemp(join(opts.scratchDir, 'proofpr-pristine-'));
  const dir = join(tmp, 'tree');
  try {
    if (opts.standalone) {
      const hooksOff = { 'core.hooksPath': '/dev/null' };
      await git(['clone', '--shared', '--no-checkout', '--quiet', '--', opts.gitDir ?? opts.root, dir], { cwd: tmp, config: hooksOff });
      await git(['checkout', '--detach', '--quiet', opts.sha], { cwd: dir, config: hooksOff });
    } else {
      await git(['worktree', 'add', '--detach', '--quiet', dir, opts.sha], g);
    }
    for (const name of DEPENDENCY_DIRS) {
      const from = join(opts.root, name);
      if (!(await lstat(from).catch(() => undefined)) || (await lstat(join(dir, name)).catch(() => undefined))) continue;
      const target = await realpath(from).catch(() => undefined);
      if (target) await symlink(target, join(dir, name), 'dir');
    }
    openCopyWorld(dir, opts.root);
    return await fn(dir);
  } finally {
    closeWorld(dir);
    if (!opts.standalone)
      await git(['worktree', 'remove', '--force', dir], g).catch((e: Error) =>
        log.warn({ err: e.message }, 'pristine checkout: worktree remove failed'),
      );
    await rm(tmp, { recursive: true, force: true });
    if (!opts.standalone) await git(['worktree', 'prune'], g).catch(() => undefined);
  }
}
