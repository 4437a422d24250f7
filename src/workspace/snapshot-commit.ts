import { git } from './git.js';
import { keepObjects, stageAllAndWriteTree, withTempIndex } from './temp-index.js';

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
  return withTempIndex(
    opts.worktree,
    async (env) => {
      const cwd = env.GIT_WORK_TREE ?? opts.worktree;
      const repoEnv = { ...env };
      delete repoEnv.GIT_INDEX_FILE;
      const tree = await stageAllAndWriteTree(cwd, env, opts.exclude);
      const head = await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd, env: repoEnv, okCodes: [0, 1, 128] });
      const parent = head.code === 0 && head.stdout.trim() ? head.stdout.trim() : undefined;
      const parentTree = parent ? (await git(['rev-parse', `${parent}^{tree}`], { cwd, env: repoEnv })).stdout.trim() : undefined;
      if (parent && tree === parentTree) return { sha: parent, tree, changed: false };
      const message = opts.coAuthor ? `${opts.message.trimEnd()}\n\nCo-authored-by: ${opts.coAuthor}\n` : `${opts.message.trimEnd()}\n`;
      const ident = {
        ...repoEnv,
        GIT_AUTHOR_NAME: opts.identity.name,
        GIT_AUTHOR_EMAIL: opts.identity.email,
        GIT_COMMITTER_NAME: opts.identity.name,
        GIT_COMMITTER_EMAIL: opts.identity.email,
      };
      const { stdout } = await git(['commit-tree', '--no-gpg-sign', tree, ...(parent ? ['-p', parent] : []), '-F', '-'], {
        cwd,
        env: ident,
        input: message,
      });
      const sha = stdout.trim();
      // The commit is checked out and adopted later: its objects go to the repository's store (only they).
      await keepObjects(cwd, repoEnv, sha, parent);
      return { sha, tree, ...(parent ? { parent } : {}), changed: true };
    },
    opts.gitDir,
  );
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
