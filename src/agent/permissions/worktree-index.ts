import { join } from 'node:path';
import { resolveInRoot } from '../../workspace/resolve-in-root.js';
import { walkTree } from '../../workspace/walk-tree.js';
import { isSecretFile } from './path-jail.js';

/**
 * What a recursive search could meet in the worktree (docs/security.md, rows "secret reads" and
 * "exfiltration"): secret files, symlinks that lead out of it (or into a git dir), and embedded
 * repositories. Walked once (without following links, skipping `.git` and `node_modules`), cached
 * until the policy is told a command ran. `truncated` when the walk hit its cap: callers then refuse.
 */
export interface WorktreeIndex {
  secrets(): { files: string[]; truncated: boolean };
  escapingLinks(): { links: string[]; truncated: boolean };
  invalidate(): void;
}

interface Walk {
  secrets: string[];
  links: string[];
  truncated: boolean;
}

export function createWorktreeIndex(
  root: string,
  gitDirs: readonly string[],
  secretExempt: (rel: string) => boolean,
  cap = 50_000,
): WorktreeIndex {
  let walk: Walk | undefined;
  const get = (): Walk => {
    if (walk) return walk;
    const w: Walk = { secrets: [], links: [], truncated: false };
    const end = walkTree(
      root,
      ({ rel, dirent: e }) => {
        if (e.isSymbolicLink()) {
          const r = resolveInRoot(root, rel, { gitDirs });
          if (!r.ok) w.links.push(rel);
          else if (isSecretFile(r.rel, r.abs) && !secretExempt(r.rel)) w.secrets.push(rel);
        } else if (!e.isDirectory() && isSecretFile(rel, join(root, rel)) && !secretExempt(rel)) w.secrets.push(rel);
      },
      { cap, skip: (e) => e.name === '.git' || e.name === 'node_modules' },
    );
    w.truncated = end === 'truncated';
    walk = w;
    return w;
  };
  return {
    secrets: () => ({ files: get().secrets, truncated: get().truncated }),
    escapingLinks: () => ({ links: get().links, truncated: get().truncated }),
    invalidate: () => {
      walk = undefined;
    },
  };
}
