import { git } from './git.js';
import { stageAll, withTempIndex } from './temp-index.js';

export interface FileStat {
  path: string;
  added: number;
  removed: number;
  /** Binary files count 0 lines. */
  binary?: boolean;
}

export interface DiffOptions {
  /** The worktree's git dir as createWorktree recorded it (Worktree.gitDir); else `.git` is read and checked. */
  gitDir?: string;
  /** Paths relative to the root left out (as for treeHash / commitWork). */
  exclude?: readonly string[];
}

const DIFF = ['diff', '--cached', '--no-renames', '--no-ext-diff', '--no-textconv', '--no-color'];

/**
 * Files that differ between baseSha and the worktree as it is now (committed, uncommitted and
 * untracked, ignored files excluded), with line counts. Uses a temporary index; the real one is untouched.
 */
export async function filesChanged(worktree: string, baseSha: string, opts: DiffOptions = {}): Promise<FileStat[]> {
  return withTempIndex(
    worktree,
    async (env) => {
      await stageAll(worktree, env, opts.exclude);
      const { stdout } = await git([...DIFF, '--numstat', '-z', baseSha, '--'], { cwd: env.GIT_WORK_TREE ?? worktree, env });
      const out: FileStat[] = [];
      for (const rec of stdout.split('\0')) {
        const m = /^(-|\d+)\t(-|\d+)\t([\s\S]+)$/.exec(rec);
        if (!m?.[3]) continue;
        const binary = m[1] === '-';
        out.push({ path: m[3], added: binary ? 0 : Number(m[1]), removed: binary ? 0 : Number(m[2]), ...(binary ? { binary } : {}) });
      }
      return out;
    },
    opts.gitDir,
  );
}

/** Unified diff of the worktree against baseSha, cut to maxBytes (UTF-8) with a note saying so. */
export async function diffText(worktree: string, baseSha: string, maxBytes: number, opts: DiffOptions = {}): Promise<string> {
  return withTempIndex(
    worktree,
    async (env) => {
      await stageAll(worktree, env, opts.exclude);
      const { stdout } = await git([...DIFF, baseSha, '--'], { cwd: env.GIT_WORK_TREE ?? worktree, env });
      const buf = Buffer.from(stdout, 'utf8');
      if (buf.length <= maxBytes) return stdout;
      let cut = buf.subarray(0, Math.max(0, maxBytes)).toString('utf8');
      if (cut.endsWith('\uFFFD')) cut = cut.slice(0, -1);
      return `${cut}\n[diff truncated: ${maxBytes} of ${buf.length} bytes shown]\n`;
    },
    opts.gitDir,
  );
}
