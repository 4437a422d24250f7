/**
 * The base branch merged into a PR branch in the mirror, before a follow-up run (issue 28, "a PR that sees
 * itself through"): `git merge-tree --write-tree` makes the merged tree without a worktree; a merge commit
 * (first parent the branch tip, second the base tip) is put on the local branch, so the run continues from
 * it and its commit descends from the remote tip: the push is a fast-forward. Conflicted files are
 * committed with their conflict markers: resolving them is the agent's task, and the gates judge the result.
 */
import { git, resolveCommit } from './git.js';

export interface MergeIntoBranchOptions {
  /** The mirror (bare) or a checkout holding both commits. */
  repoDir: string;
  /** The local branch that receives the merge commit (refs/heads/<branch>). */
  branch: string;
  /** The PR branch's tip on the remote (the commit the merge's first parent is). */
  tipSha: string;
  /** The base branch's name; its tip is read from refs/remotes/origin/<base>, else refs/heads/<base>. */
  base: string;
  /** Merge even when it is clean (ci.auto_update); otherwise only a conflicting base is merged. */
  always: boolean;
  identity: { name: string; email: string };
  /** For lazy blob fetches of a blob-less mirror. */
  token?: string;
}

export type MergeIntoBranch =
  /** The base tip is already in the branch. */
  | { kind: 'up-to-date'; baseSha: string }
  /** The base moved and merges cleanly, but no update was asked for. */
  | { kind: 'clean-not-merged'; baseSha: string }
  | { kind: 'merged'; baseSha: string; sha: string; conflicts: string[] };

export async function mergeIntoBranch(o: MergeIntoBranchOptions): Promise<MergeIntoBranch> {
  const cwd = o.repoDir;
  const baseSha = (await resolveCommit(cwd, `refs/remotes/origin/${o.base}`)) ?? (await resolveCommit(cwd, `refs/heads/${o.base}`));
  if (!baseSha) throw new Error(`the base branch ${o.base} is not in the mirror; fetch it and retry`);
  const contained = await git(['merge-base', '--is-ancestor', baseSha, o.tipSha], { cwd, okCodes: [0, 1] });
  if (contained.code === 0) return { kind: 'up-to-date', baseSha };
  const tree = await git(['merge-tree', '--write-tree', '--name-only', '--no-messages', o.tipSha, baseSha], {
    cwd,
    okCodes: [0, 1],
    ...(o.token ? { token: o.token } : {}),
  });
  const [treeSha = '', ...names] = tree.stdout.split('\n').map((l) => l.trim());
  const conflicts = tree.code === 1 ? [...new Set(names.filter(Boolean))] : [];
  if (conflicts.length === 0 && !o.always) return { kind: 'clean-not-merged', baseSha };
  const env = {
    GIT_AUTHOR_NAME: o.identity.name,
    GIT_AUTHOR_EMAIL: o.identity.email,
    GIT_COMMITTER_NAME: o.identity.name,
    GIT_COMMITTER_EMAIL: o.identity.email,
  };
  const message = conflicts.length
    ? `Merge branch '${o.base}' into ${o.branch}\n\nConflicts left for the agent to resolve:\n${conflicts.map((c) => `  ${c}`).join('\n')}\n`
    : `Merge branch '${o.base}' into ${o.branch}\n`;
  const commit = await git(['commit-tree', treeSha, '-p', o.tipSha, '-p', baseSha, '-m', message], { cwd, env });
  const sha = commit.stdout.trim();
  await git(['update-ref', '-m', 'proofpr: merge the base into the PR branch', `refs/heads/${o.branch}`, sha], { cwd });
  return { kind: 'merged', baseSha, sha, conflicts };
}
