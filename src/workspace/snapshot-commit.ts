import { git } from './git.js';
import { stageAllAndWriteTree } from './temp-index.js';
import { headCommit, withCommitIndex, writeCommitObject } from './commit-object.js';

export interface SnapshotOptions {
  worktree: string;
  message: string;
  identity: { name: string; email: string };
  coAuthor?: string;
  gitDir?: string;
  /** Left out as in commitWork (test reports). */
  exclude?: string[];
}

/** A commit object of the worktree (`git add -A` semantics, as commitWork) on top of HEAD; `changed` false when the tree is HEAD's own (then `sha` is HEAD). */
export type Snapshot = { sha: string; tree: string; parent?: string; changed: boolean };

/**
 * Writes the commit the run would push, without moving any branch: the final run is made on this
 * exact commit in a clean checkout, and `adoptCommit` later points the branch at it. Same tree, same
 * identity and trailer as commitWork; no hooks, no signing.
 */
export async function snapshotCommit(opts: SnapshotOptions): Promise<Snapshot> {
  return withCommitIndex(opts.worktree, opts.gitDir, async ({ env, cwd, repoEnv }) => {
    const tree = await stageAllAndWriteTree(cwd, env, opts.exclude);
    const { parent, parentTree } = await headCommit(cwd, repoEnv);
    if (parent && tree === parentTree) return { sha: parent, tree, changed: false };
    // The commit is checked out and adopted later: its objects go to the repository's store (only they).
    const { sha } = await writeCommitObject(cwd, repoEnv, { ...opts, tree, parent });
    return { sha, tree, ...(parent ? { parent } : {}), changed: true };
  });
}

/**
 * Points the worktree's branch (HEAD) at `snapshot.sha`, only when HEAD is still its parent, and
 * resets the index to it (the files on disk are left as they are).
 */
export async function adoptCommit(opts: { worktree: string; snapshot: Snapshot; gitDir?: string }): Promise<void> {
  const s = opts.snapshot;
  if (!s.changed) return;
  const env = opts.gitDir ? { GIT_DIR: opts.gitDir, GIT_WORK_TREE: opts.worktree } : undefined;
  await git(['update-ref', '-m', 'commit: the tested commit', 'HEAD', s.sha, s.parent ?? ''], {
    cwd: opts.worktree,
    ...(env ? { env } : {}),
  });
  await git(['reset', '--quiet'], { cwd: opts.worktree, ...(env ? { env } : {}), okCodes: [0, 128] });
}
