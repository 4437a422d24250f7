/**
 * Which case last changed each path of the run's worktree: after every call the worktree is walked (not
 * into .git or a linked dependency folder, a bounded number of entries) and each added, changed or
 * removed path is credited to the case of that call. The commit check uses it to name the case behind a
 * protected path or a secret that reached the commit.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { diffSnapshots, type Snapshot } from './snapshot.js';
import { lstatSync, readdirSync, statSync } from 'node:fs';

export interface WorktreeWatch {
  /** The worktree's path, once found. */
  path(): string | undefined;
  /** Credits every path changed since the last call to `caseId`. */
  after(caseId: string): void;
  /** The case that last changed `rel`, if any. */
  owner(rel: string): string | undefined;
}

const MAX = 6000;

function quickWalk(root: string): Snapshot {
  const out: Snapshot = new Map();
  const stack = [''];
  while (stack.length > 0 && out.size < MAX) {
    const rel = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(join(root, rel));
    } catch {
      continue;
    }
    for (const n of names) {
      const r = rel ? `${rel}/${n}` : n;
      if (r === '.git' || r === 'node_modules') continue;
      try {
        const st = lstatSync(join(root, r));
        out.set(r, `${st.mode}:${st.size}:${st.mtimeMs}`);
        if (st.isDirectory()) stack.push(r);
      } catch {
        /* gone */
      }
    }
  }
  return out;
}

/** The run's worktree: a linked worktree of the repository, else the newest folder under PROOFPR_HOME/worktrees. */
function findWorktree(repo: string, phome?: string): string | undefined {
  const list = execFileSync('git', ['worktree', 'list', '--porcelain'], { cwd: repo, encoding: 'utf8' });
  const paths = list
    .split('\n')
    .filter((l) => l.startsWith('worktree '))
    .map((l) => l.slice('worktree '.length));
  const linked = paths.find((p) => p !== repo);
  if (linked || !phome) return linked;
  try {
    const dir = join(phome, 'worktrees');
    const runs = readdirSync(dir)
      .map((n) => join(dir, n))
      .filter((p) => statSync(p).isDirectory())
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    return runs[0];
  } catch {
    return undefined;
  }
}

export function worktreeWatch(repo: string, phome?: string): WorktreeWatch {
  let root: string | undefined;
  let last: Snapshot = new Map();
  const owners = new Map<string, string>();
  return {
    path: () => root,
    after(caseId) {
      if (!root) {
        root = findWorktree(repo, phome);
        if (!root) return;
      }
      const now = quickWalk(root);
      for (const d of diffSnapshots(last, now)) owners.set(d.slice(d.indexOf(' ') + 1), caseId);
      last = now;
    },
    owner: (rel) => owners.get(rel),
  };
}
