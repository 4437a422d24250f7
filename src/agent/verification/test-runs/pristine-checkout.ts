import { lstat, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { silentLogger } from '../../../log.js';
import { DEPENDENCY_DIRS } from '../../../workspace/dependency-dirs.js';
import { git } from '../../../workspace/git.js';
import { readBaseInstall, type LinkedDir } from '../../../workspace/linked-dirs.js';
import { closeWorld, openCopyWorld } from '../../../workspace/world.js';

/** The names of installed dependency folders (ignored by git): what a checkout with no recorded base install borrows. */
export { DEPENDENCY_DIRS };

export interface PristineOptions {
  /** The agent's worktree: its git dir holds the commit and the record of the base's install. */
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
 * the commit holds, nothing ignored or untracked from the agent's worktree, no file copied, plus links
 * to the base's install where the commit has none of that name (baseInstallLinks). The checkout shares
 * the agent's world (world.ts): a test run there masks the same secret-looking files the agent's sandbox
 * masks (harness-run.ts). The checkout is always removed.
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
    for (const l of await baseInstallLinks(opts)) {
      if (await lstat(join(dir, l.name)).catch(() => undefined)) continue;
      if (await lstat(l.target).catch(() => undefined)) await symlink(l.target, join(dir, l.name), 'dir');
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

/**
 * The dependency folders a clean checkout links: the base's install as recorded before the agent ran
 * (linked-dirs.ts recordBaseInstall, in the worktree's git dir), each to the folder it resolved to then,
 * so a folder the agent created afterwards (an ignored `venv/` with a corrected copy of a module, whatever
 * its name) or a link it re-pointed never reaches a harness run. Only a checkout with no such record (no
 * agent ran there: doctor's look at a repository, a verify run's scratch repository) borrows the
 * dependency folders `root` has by name.
 */
async function baseInstallLinks(opts: PristineOptions): Promise<LinkedDir[]> {
  const recorded = opts.gitDir ? await readBaseInstall(opts.gitDir) : undefined;
  if (recorded) return recorded;
  const out: LinkedDir[] = [];
  for (const name of DEPENDENCY_DIRS) {
    const target = await realpath(join(opts.root, name)).catch(() => undefined);
    if (target) out.push({ name, target });
  }
  return out;
}
