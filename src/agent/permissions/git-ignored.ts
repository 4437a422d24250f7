import { spawnSync } from 'node:child_process';

/** Answers "would `git add -A` leave this worktree path out?" (it is ignored and not tracked). */
export interface IgnoredPaths {
  /** `rel` is worktree-relative; it need not exist. */
  isIgnored(rel: string): boolean;
  /** Forget cached answers (after anything that may have changed a .gitignore). */
  invalidate(): void;
}

/** The process environment without GIT_* variables (they would point git at another repository). */
export function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^GIT_/i.test(k)) env[k] = v;
  return env;
}

/**
 * `git -C root check-ignore -q -- rel`, cached until `invalidate()`. Plain check-ignore (no
 * `--no-index`): a tracked file that matches an ignore pattern is still committed, so it is not
 * ignored here. Exit 0 = ignored, 1 = not ignored; anything else (not a repository, git missing)
 * counts as not ignored, since then nothing is committed from this tree anyway.
 */
export function createIgnoredPaths(root: string): IgnoredPaths {
  const cache = new Map<string, boolean>();
  const env = gitEnv();
  return {
    isIgnored(rel) {
      if (rel === '' || rel === '.') return false;
      const hit = cache.get(rel);
      if (hit !== undefined) return hit;
      const r = spawnSync('git', ['-C', root, 'check-ignore', '-q', '--', rel], { stdio: 'ignore', timeout: 10_000, env });
      const ignored = r.status === 0;
      cache.set(rel, ignored);
      return ignored;
    },
    invalidate() {
      cache.clear();
    },
  };
}

/** The refusal every writer gives for an ignored target. */
export function ignoredReason(shown: string): string {
  return `${shown} is ignored by git, so a change there would not be part of the commit; change tracked files instead`;
}
