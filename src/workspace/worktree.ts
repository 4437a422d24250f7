import { mkdir, realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { z } from 'zod';
import { WorkspaceError } from './errors.js';
import { GitError, git, resolveCommit } from './git.js';
import { linkDependencyDirs, type LinkedDir } from './linked-dirs.js';
import { withLock } from './lock.js';
import { readWorktreeGitDirs, worktreeGitEnv } from './worktree-git-dir.js';
import { claimPooled, releaseToPool } from './worktree-pool.js';
import { removeMarker, writeMarker } from './worktree-marker.js';
import { removeWorktreeUnlocked, repoLockPath } from './worktree-remove.js';
import { logger as rootLogger } from '../log.js';

export { sweepWorktrees } from './worktree-sweep.js';

export interface Worktree {
  /** Realpath of the worktree root. */
  path: string;
  /** The commit the work starts from (with continueBranch: merge-base of the branch tip and baseRef). */
  baseSha: string;
  branch: string;
  /** The worktree's own git dir (`<common>/worktrees/<name>`): no tool may read or write it. */
  gitDir: string;
  /** The repository's common git dir (objects, refs, config) the worktree belongs to. */
  commonDir: string;
  /** Dependency folders of the source checkout linked into the worktree (see linkDirs). */
  linked: LinkedDir[];
  /** True when a warm pooled worktree was reset instead of checking out every file. */
  reused: boolean;
  /** Removes the worktree (or parks it in the pool); safe to call more than once. */
  remove(): Promise<void>;
}

export interface CreateWorktreeOptions {
  repoDir: string;
  baseRef: string;
  branch: string;
  worktreesDir: string;
  runId: string;
  continueBranch?: boolean;
  /** For lazy blob fetches of a blob-less mirror during checkout (http.extraheader, this command only). */
  token?: string;
  /** Reuse and park warm worktrees of this repository (default off; `true` keeps at most 2 parked). */
  pool?: boolean | { max?: number };
  /**
   * Top-level folder names (e.g. node_modules, .venv, venv, vendor) to symlink from the source checkout
   * into the worktree when they exist there and git ignores them; never part of a tree hash or commit.
   * Nothing is linked from a bare repository (mirror). Default none.
   */
  linkDirs?: string[];
  logger?: Logger;
}

const schema = z.object({
  repoDir: z.string().min(1, 'repoDir must be a git repository'),
  baseRef: z.string().min(1, 'baseRef must name a commit (branch, tag or sha)'),
  branch: z.string().min(1, 'branch must be a branch name such as proofpr/12-fix-parser'),
  worktreesDir: z.string().min(1, 'worktreesDir must be a folder for worktrees'),
  runId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'runId must be letters, digits, ".", "_" or "-"'),
  linkDirs: z
    .array(z.string().regex(/^[A-Za-z0-9._-]+$/, 'linkDirs entries must be top-level folder names such as node_modules'))
    .optional(),
});

/** The git dirs of a worktree proofpr just created or claimed; they must belong to `commonDir`. */
async function ownGitDir(path: string, commonDir: string): Promise<string> {
  const dirs = await readWorktreeGitDirs(path);
  if (!dirs || dirs.commonDir !== (await realpath(commonDir))) {
    throw new WorkspaceError('tampered', `the worktree at ${path} does not belong to ${commonDir}; remove it and retry`);
  }
  return dirs.gitDir;
}

const busyBranch = /already checked out at|already used by worktree at|is already checked out/i;

function mapAddError(e: unknown, branch: string): unknown {
  if (e instanceof GitError && busyBranch.test(e.stderr)) {
    return new WorkspaceError(
      'branch-busy',
      `branch ${branch} is checked out in another worktree (${e.stderr.trim().split('\n').pop() ?? ''}); another run on the ` +
        'same branch is in progress, or a crashed run left it: run the start-up sweep (sweepWorktrees) and retry',
    );
  }
  return e;
}

async function resolveBase(repoDir: string, baseRef: string): Promise<string> {
  const sha = (await resolveCommit(repoDir, baseRef)) ?? (await resolveCommit(repoDir, `refs/remotes/origin/${baseRef}`));
  if (sha) return sha;
  throw new WorkspaceError(
    'base-missing',
    `the base branch or commit '${baseRef}' does not exist in ${repoDir} (deleted on the remote?); ` +
      'pick an existing base branch, or re-open the pull request against one',
  );
}

/** The tip to continue from: the local branch, fast-forwarded to the remote's copy when that is ahead. */
async function continueTip(repoDir: string, branch: string): Promise<string | undefined> {
  const local = await resolveCommit(repoDir, `refs/heads/${branch}`);
  const remote = await resolveCommit(repoDir, `refs/remotes/origin/${branch}`);
  if (!remote || remote === local) return local;
  const ff = local ? (await git(['merge-base', '--is-ancestor', local, remote], { cwd: repoDir, okCodes: [0, 1] })).code === 0 : true;
  if (!ff) return local;
  await git(['update-ref', '-m', 'proofpr: fast-forward to the remote branch', `refs/heads/${branch}`, remote, local ?? ''], {
    cwd: repoDir,
  });
  return remote;
}

/**
 * A fresh worktree for one run at `<worktreesDir>/<runId>` on `branch`: created (or reset with -B) at
 * baseRef, or with continueBranch checked out at the branch tip. A marker next to it records the owning
 * pid so a start-up sweep can remove it if this process dies. Add/move/remove hold the repository lock.
 */
export async function createWorktree(opts: CreateWorktreeOptions): Promise<Worktree> {
  const o = schema.parse(opts);
  const log = (opts.logger ?? rootLogger('workspace')).child({ op: 'worktree', runId: o.runId });
  const check = await git(['check-ref-format', '--branch', o.branch], { cwd: resolve(o.repoDir), okCodes: [0, 1, 128] });
  if (check.code !== 0) throw new WorkspaceError('bad-input', `branch '${o.branch}' is not a valid branch name`);
  const repoDir = await realpath(o.repoDir);
  const commonDir = (await git(['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: repoDir })).stdout.trim();
  await mkdir(o.worktreesDir, { recursive: true });
  const worktreesDir = await realpath(o.worktreesDir);
  const path = join(worktreesDir, o.runId);
  if (await stat(path).catch(() => undefined))
    throw new WorkspaceError('bad-input', `a worktree for run ${o.runId} already exists at ${path}; use a new runId`);
  const poolMax = opts.pool === true ? 2 : opts.pool ? (opts.pool.max ?? 2) : 0;
  await writeMarker(worktreesDir, { runId: o.runId, path, commonDir, branch: o.branch });
  const started = Date.now();
  let reused = false;
  let baseSha = '';
  try {
    const target = await withLock(repoLockPath(commonDir), async () => {
      const base = await resolveBase(repoDir, o.baseRef);
      const tip = opts.continueBranch ? await continueTip(repoDir, o.branch) : undefined;
      baseSha = tip ? (await git(['merge-base', tip, base], { cwd: repoDir, okCodes: [0, 1] })).stdout.trim() || base : base;
      reused = poolMax > 0 && (await claimPooled(worktreesDir, commonDir, path));
      if (!reused) {
        const args = tip ? [path, o.branch] : ['-B', o.branch, path, base];
        await git(['worktree', 'add', '--quiet', '--no-checkout', ...args], { cwd: repoDir }).catch((e: unknown) => {
          throw mapAddError(e, o.branch);
        });
      }
      return { tip, base };
    });
    // Writing the files happens outside the lock, so concurrent runs of one repository check out in parallel.
    // Every git call in the worktree names its git dir: a `.git` left by a previous (pooled) run is not trusted.
    const env = worktreeGitEnv(await realpath(path), await ownGitDir(path, commonDir));
    if (reused) {
      const args = target.tip ? [o.branch] : ['-B', o.branch, target.base];
      await git(['checkout', '--quiet', '-f', ...args], { cwd: path, env, token: opts.token }).catch((e: unknown) => {
        throw mapAddError(e, o.branch);
      });
      await git(['clean', '-ffdxq'], { cwd: path, env });
    } else {
      await git(['reset', '--quiet', '--hard'], { cwd: path, env, token: opts.token });
    }
  } catch (e) {
    await withLock(repoLockPath(commonDir), () => removeWorktreeUnlocked(commonDir, path)).catch(() => undefined);
    await removeMarker(worktreesDir, o.runId);
    throw e;
  }
  const real = await realpath(path);
  const gitDir = await ownGitDir(real, commonDir);
  // After a pooled reset too: `clean -ffdx` removed the previous run's links.
  const linked = await linkDependencyDirs(repoDir, real, gitDir, o.linkDirs ?? []);
  log.info(
    { path: real, branch: o.branch, baseSha, reused, linked: linked.map((l) => l.name), ms: Date.now() - started },
    'worktree ready',
  );
  let removal: Promise<void> | undefined;
  const remove = (): Promise<void> => {
    removal ??= (async () => {
      const t = Date.now();
      await withLock(repoLockPath(commonDir), async () => {
        const parked = poolMax > 0 && (await releaseToPool(worktreesDir, commonDir, real, poolMax, gitDir).catch(() => false));
        if (!parked) await removeWorktreeUnlocked(commonDir, real);
      });
      await removeMarker(worktreesDir, o.runId);
      log.info({ path: real, ms: Date.now() - t }, 'worktree removed');
    })().catch((e: unknown) => {
      removal = undefined; // let a later call try again
      throw e;
    });
    return removal;
  };
  return { path: real, baseSha, branch: o.branch, gitDir, commonDir: await realpath(commonDir), linked, reused, remove };
}
