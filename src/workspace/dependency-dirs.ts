/**
 * Installed dependency folders (ignored by git): linked into the agent's worktree from the source
 * checkout, borrowed by the harness's clean final run from the agent's worktree. Because the final run
 * uses them as they are, they are the git-ignored paths no tool may write (docs/security.md, row
 * "harness tampering"); every other ignored path (scratch, build output) is writable, since the final
 * run never sees it.
 */
export const DEPENDENCY_DIRS: readonly string[] = ['node_modules', '.venv', 'venv', 'vendor'];

/** The dependency folder `rel` (worktree-relative) is in, by any of its segments; undefined when none. */
export function dependencyDirOf(rel: string): string | undefined {
  return rel.split('/').find((s) => DEPENDENCY_DIRS.includes(s));
}
