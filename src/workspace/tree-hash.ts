import { stageAllAndWriteTree, withTempIndex } from './temp-index.js';

/**
 * Content hash of a worktree: `git add -A` into a temporary index (seeded from the real one so git's
 * stat cache makes it cheap), then `git write-tree`. Two trees with the same files hash the same,
 * whatever the timestamps say. Ignored files are not part of it (they are not part of a commit either).
 * commitWork (publish.ts) stages with the same environment, so the hash is the tree it would commit.
 */
export async function treeHash(root: string): Promise<string> {
  return withTempIndex(root, (env) => stageAllAndWriteTree(root, env));
}

export { gitEnv } from './git-env.js';
