import { stageAll, stageAllAndWriteTree, withTempIndex, type LeftOut } from './temp-index.js';

export interface TreeHashOptions {
  /** The worktree's git dir as createWorktree recorded it (Worktree.gitDir); else `.git` is read and checked. */
  gitDir?: string;
  /** Paths relative to the root left out of the hash (test reports, coverage); pass the same to commitWork. */
  exclude?: readonly string[];
}

/**
 * Content hash of a worktree: `git add -A` into a temporary index (seeded from the real one so git's
 * stat cache makes it cheap), then `git write-tree`. Two trees with the same files hash the same,
 * whatever the timestamps say. Ignored files are not part of it (they are not part of a commit either),
 * nor are `exclude` paths and dependency links. commitWork (publish.ts) stages the same way, so the hash
 * is the tree it would commit when given the same `exclude`.
 */
export async function treeHash(root: string, opts: TreeHashOptions = {}): Promise<string> {
  return withTempIndex(root, (env) => stageAllAndWriteTree(root, env, opts.exclude), opts.gitDir);
}

/**
 * The files of the worktree that no tree of the harness takes (commit-filter.ts: a path git refuses, a
 * file over GitHub's size bound, a file the base's ignore rules ignore), for the evidence (`leftOut`).
 */
export async function leftOutOfTree(root: string, opts: TreeHashOptions = {}): Promise<LeftOut[]> {
  return withTempIndex(root, (env) => stageAll(root, env, opts.exclude), opts.gitDir);
}
