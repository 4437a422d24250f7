import { hiddenFromAgent } from '../../workspace/world.js';

/**
 * The worktree paths a file tool leaves out as if they were not there: secret-looking files the run's
 * world hides (src/workspace/world.ts; the sandbox masks the same files) and what the config's
 * Read(...) deny rules cover (`readDeny`). Takes a worktree-relative POSIX path.
 */
export function hiddenPaths(ctx: { root: string; readDeny?: (relPath: string) => boolean }): (rel: string) => boolean {
  return (rel) => (ctx.readDeny?.(rel) ?? false) || hiddenFromAgent(ctx.root, rel);
}
