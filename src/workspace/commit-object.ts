import { git } from './git.js';
import { keepObjects, withTempIndex } from './temp-index.js';

/** What a commit is built with: the temporary index's env, the worktree, and the env without that index. */
export interface CommitIndex {
  env: Record<string, string>;
  cwd: string;
  repoEnv: Record<string, string>;
}

/** withTempIndex for building a commit: also the worktree to run git in and the repository's own env. */
export function withCommitIndex<T>(worktree: string, gitDir: string | undefined, fn: (ix: CommitIndex) => Promise<T>): Promise<T> {
  return withTempIndex(
    worktree,
    (env) => {
      const repoEnv = { ...env };
      delete repoEnv.GIT_INDEX_FILE;
      return fn({ env, cwd: env.GIT_WORK_TREE ?? worktree, repoEnv });
    },
    gitDir,
  );
}

/** HEAD's commit and tree, or both undefined on an unborn branch. */
export async function headCommit(cwd: string, repoEnv: Record<string, string>): Promise<{ parent?: string; parentTree?: string }> {
  const head = await git(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd, env: repoEnv, okCodes: [0, 1, 128] });
  const parent = head.code === 0 && head.stdout.trim() ? head.stdout.trim() : undefined;
  if (!parent) return {};
  return { parent, parentTree: (await git(['rev-parse', `${parent}^{tree}`], { cwd, env: repoEnv })).stdout.trim() };
}

export interface CommitObject {
  tree: string;
  parent: string | undefined;
  message: string;
  /** The bot identity; the machine's git identity is never used. */
  identity: { name: string; email: string };
  /** "Name <email>" added as a `Co-authored-by:` trailer. */
  coAuthor?: string | undefined;
}

/**
 * Writes the commit object (commit-tree: no hooks, no signing) with the bot identity as author and
 * committer, and moves its new objects from the run's private store to the repository's before any ref
 * names it. Returns its id and the identity environment (for the ref update that follows).
 */
export async function writeCommitObject(
  cwd: string,
  repoEnv: Record<string, string>,
  c: CommitObject,
): Promise<{ sha: string; identEnv: Record<string, string> }> {
  const message = c.coAuthor ? `${c.message.trimEnd()}\n\nCo-authored-by: ${c.coAuthor}\n` : `${c.message.trimEnd()}\n`;
  const { name, email } = c.identity;
  const identEnv = { ...repoEnv, GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email };
  const parentArgs = c.parent ? ['-p', c.parent] : [];
  const { stdout } = await git(['commit-tree', '--no-gpg-sign', c.tree, ...parentArgs, '-F', '-'], { cwd, env: identEnv, input: message });
  const sha = stdout.trim();
  await keepObjects(cwd, repoEnv, sha, c.parent);
  return { sha, identEnv };
}
