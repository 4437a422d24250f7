import { lstat, readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { WorkspaceError } from './errors.js';

export interface WorktreeGitDirs {
  /** The worktree's own git dir (`<common>/worktrees/<name>`, or `<root>/.git` of a main checkout). */
  gitDir: string;
  /** The repository's common git dir (objects, refs, config). */
  commonDir: string;
}

/**
 * The environment that pins a harness git call to one worktree: git then never reads `<root>/.git`,
 * which code run in the worktree could have rewritten to point at a git dir whose config runs programs.
 */
export function worktreeGitEnv(root: string, gitDir: string): Record<string, string> {
  return { GIT_DIR: gitDir, GIT_WORK_TREE: root };
}

const inside = (p: string, dir: string): boolean => p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);

async function pointer(file: string, from: string): Promise<string | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  const line = text?.split('\n')[0]?.replace(/^gitdir:\s*/, '').trim();
  if (!line) return undefined;
  return realpath(isAbsolute(line) ? line : resolve(from, line)).catch(() => undefined);
}

/** The common dir a git dir declares (its `commondir` file), or the git dir itself. */
export async function commonDirOf(gitDir: string): Promise<string> {
  return (await pointer(join(gitDir, 'commondir'), gitDir)) ?? gitDir;
}

function refuse(root: string, why: string): WorkspaceError {
  return new WorkspaceError(
    'tampered',
    `refusing to run git in ${root}: its .git ${why}; code run in the worktree may have rewritten it, so the run's ` +
      'git dir is not trusted any more (remove the worktree and start a new run)',
  );
}

/**
 * Reads and checks `<root>/.git`: undefined when there is none. A `.git` file must lead to a git dir
 * outside the worktree, under `<common>/worktrees/`, whose `commondir` is that common dir, whose
 * `gitdir` points back at this worktree, and whose common dir holds HEAD and objects; anything else throws
 * WorkspaceError 'tampered'. A `.git` directory (a main checkout) is taken as it is.
 */
export async function readWorktreeGitDirs(root: string): Promise<WorktreeGitDirs | undefined> {
  const realRoot = await realpath(root);
  const dotGit = join(realRoot, '.git');
  const st = await lstat(dotGit).catch(() => undefined);
  if (!st) return undefined;
  if (st.isDirectory()) return { gitDir: dotGit, commonDir: await commonDirOf(dotGit) };
  if (!st.isFile()) throw refuse(realRoot, 'is neither a file nor a directory');
  const gitDir = await pointer(dotGit, realRoot);
  if (!gitDir) throw refuse(realRoot, 'file does not name an existing git dir');
  if (inside(gitDir, realRoot)) throw refuse(realRoot, `points inside the worktree (${relative(realRoot, gitDir) || '.'})`);
  const commonDir = dirname(dirname(gitDir));
  if (basename(dirname(gitDir)) !== 'worktrees') throw refuse(realRoot, `points at ${gitDir}, which is not under a repository's worktrees/ folder`);
  if ((await commonDirOf(gitDir)) !== commonDir) throw refuse(realRoot, `points at ${gitDir}, whose commondir is not ${commonDir}`);
  const back = await pointer(join(gitDir, 'gitdir'), gitDir);
  if (!back || dirname(back) !== realRoot) throw refuse(realRoot, `points at ${gitDir}, which belongs to another worktree`);
  for (const must of ['HEAD', 'objects']) {
    if (!(await stat(join(commonDir, must)).catch(() => undefined))) throw refuse(realRoot, `points at ${gitDir}, whose common dir has no ${must}`);
  }
  return { gitDir, commonDir };
}

/** readWorktreeGitDirs, throwing when `root` has no `.git` at all. */
export async function resolveWorktreeGitDir(root: string): Promise<WorktreeGitDirs> {
  const dirs = await readWorktreeGitDirs(root);
  if (!dirs) throw new WorkspaceError('bad-input', `${root} is not a git worktree (it has no .git); pass the worktree root`);
  return dirs;
}
