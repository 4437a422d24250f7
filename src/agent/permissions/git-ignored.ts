import { spawnSync } from 'node:child_process';
import { dependencyDirOf } from '../../workspace/dependency-dirs.js';

/** Answers "would `git add -A` leave this worktree path out?" (it is ignored and not tracked). */
export interface IgnoredPaths {
  /** `rel` is worktree-relative; it need not exist. */
  isIgnored(rel: string): boolean;
  /**
   * `git ls-files -z` under `rel` (tracked only, or plus untracked-not-ignored), cached like isIgnored;
   * undefined when git cannot list them.
   */
  listFiles(rel: string, untracked: boolean): string[] | undefined;
  /** Forget cached answers (after anything that may have changed a .gitignore or the file set). */
  invalidate(): void;
}

/** The process environment without GIT_* variables (they would point git at another repository). */
function envWithoutGitVariables(): NodeJS.ProcessEnv {
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
  const listings = new Map<string, string[] | undefined>();
  const env = envWithoutGitVariables();
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
    listFiles(rel, untracked) {
      const key = `${untracked ? 'u' : 't'}:${rel}`;
      if (listings.has(key)) return listings.get(key);
      const args = [
        '-C',
        root,
        '-c',
        'core.quotepath=false',
        'ls-files',
        '-z',
        ...(untracked ? ['-co', '--exclude-standard'] : []),
        '--',
        rel === '' ? '.' : rel,
      ];
      const r = spawnSync('git', args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env });
      const files = r.status === 0 ? r.stdout.split('\0').filter((f) => f !== '') : undefined;
      listings.set(key, files);
      return files;
    },
    invalidate() {
      cache.clear();
      listings.clear();
    },
  };
}

/**
 * CONTRACT §9: git-ignored paths are writable (scratch, build output): the verdict comes from a clean
 * checkout of the commit, which never sees them. Except installed dependency folders that git ignores
 * (`node_modules`, `.venv`, …): that clean checkout borrows them from the agent's worktree, so a change
 * there would reach the verdict without being in the commit. `.git`, secrets and control files are
 * refused before this, by the path jail. `rel` is worktree-relative.
 */
export function ignoredDependencyDir(ignored: IgnoredPaths, rel: string): string | undefined {
  const dir = dependencyDirOf(rel);
  return dir !== undefined && ignored.isIgnored(rel) ? dir : undefined;
}

/** The refusal every writer gives for a target inside an ignored dependency folder. */
export function dependencyReason(shown: string, dir: string): string {
  return `${shown} is inside ${dir}, an installed dependency folder git ignores: the harness's clean final run reuses that folder, so a change there would change the verdict without being part of the commit; change tracked files instead (dependencies come from setup.command)`;
}
