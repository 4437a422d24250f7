/**
 * Branches proofpr left behind by runs that ended without a PR: a `proofpr/*` branch with no commit of
 * its own (every commit is on another branch or remote ref) holds nothing and is deleted; one with
 * commits (WIP of an unverified or aborted run) is kept. A branch checked out in a worktree is kept.
 */
import { git } from './git.js';

export interface PruneResult {
  deleted: string[];
  kept: string[];
}

/** True when `ref` has commits that no other (non-proofpr) branch or remote ref has. */
export async function hasOwnCommits(repoDir: string, ref: string): Promise<boolean> {
  const r = await git(
    ['rev-list', '--count', ref, '--not', '--exclude=refs/heads/proofpr/*', '--exclude=refs/remotes/*/proofpr/*', '--all'],
    { cwd: repoDir },
  );
  return Number(r.stdout.trim()) > 0;
}

export async function pruneEmptyBranches(repoDir: string, opts: { dryRun?: boolean } = {}): Promise<PruneResult> {
  const list = await git(['for-each-ref', '--format=%(refname:short)', 'refs/heads/proofpr/'], { cwd: repoDir });
  const out: PruneResult = { deleted: [], kept: [] };
  for (const branch of list.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    if (await hasOwnCommits(repoDir, `refs/heads/${branch}`)) {
      out.kept.push(branch);
      continue;
    }
    if (opts.dryRun) {
      out.deleted.push(branch);
      continue;
    }
    const del = await git(['branch', '-D', branch], { cwd: repoDir }).then(
      () => true,
      () => false,
    );
    (del ? out.deleted : out.kept).push(branch);
  }
  return out;
}
