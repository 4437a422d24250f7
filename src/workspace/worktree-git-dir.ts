import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { readRegularFile } from './special-file.js';
import { realpath } from 'node:fs/promises';
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

function pointerSync(file: string, from: string): string | undefined {
  let text: string;
  try {
    // Bounded, and never blocking: a pipe put in place of a pointer file is refused, not opened.
    text = readRegularFile(file, 64 * 1024).toString('utf8');
  } catch {
    return undefined;
  }
  const line = text
    .split('\n')[0]
    ?.replace(/^gitdir:\s*/, '')
    .trim();
  if (!line) return undefined;
  try {
    return realpathSync(isAbsolute(line) ? line : resolve(from, line));
  } catch {
    return undefined;
  }
}

/** The common dir a git dir declares (its `commondir` file), or the git dir itself. */
export function commonDirOfSync(gitDir: string): string {
  return pointerSync(join(gitDir, 'commondir'), gitDir) ?? gitDir;
}

/** The common dir a git dir declares (its `commondir` file), or the git dir itself. */
export async function commonDirOf(gitDir: string): Promise<string> {
  return commonDirOfSync(gitDir);
}

function refuse(root: string, why: string): WorkspaceError {
  return new WorkspaceError(
    'tampered',
    `refusing to run git in ${root}: its .git ${why}; code run in the worktree may have rewritten it, so the run's ` +
      'git dir is not trusted any more (remove the worktree and start a new run)',
  );
}

/**
 * The one reader of a worktree's git dirs (the harness's git calls, the sandbox mounts and the
 * permission policy all use it). Reads and checks `<root>/.git`: undefined when there is none. A `.git`
 * file must lead to a git dir outside the worktree, under `<common>/worktrees/`, whose `commondir` is
 * that common dir, whose `gitdir` points back at this worktree, and whose common dir holds HEAD and
 * objects; anything else throws WorkspaceError 'tampered'. A `.git` directory (a main checkout) is
 * taken as it is. Synchronous: a handful of small reads.
 */
export function readWorktreeGitDirsSync(root: string): WorktreeGitDirs | undefined {
  const realRoot = realpathSync(root);
  const dotGit = join(realRoot, '.git');
  let st;
  try {
    st = lstatSync(dotGit);
  } catch {
    return undefined;
  }
  if (st.isDirectory()) return { gitDir: dotGit, commonDir: commonDirOfSync(dotGit) };
  if (!st.isFile()) throw refuse(realRoot, 'is neither a file nor a directory');
  const gitDir = pointerSync(dotGit, realRoot);
  if (!gitDir) throw refuse(realRoot, 'file does not name an existing git dir');
  if (inside(gitDir, realRoot)) throw refuse(realRoot, `points inside the worktree (${relative(realRoot, gitDir) || '.'})`);
  const commonDir = dirname(dirname(gitDir));
  if (basename(dirname(gitDir)) !== 'worktrees')
    throw refuse(realRoot, `points at ${gitDir}, which is not under a repository's worktrees/ folder`);
  if (commonDirOfSync(gitDir) !== commonDir) throw refuse(realRoot, `points at ${gitDir}, whose commondir is not ${commonDir}`);
  const back = pointerSync(join(gitDir, 'gitdir'), gitDir);
  if (!back || dirname(back) !== realRoot) throw refuse(realRoot, `points at ${gitDir}, which belongs to another worktree`);
  for (const must of ['HEAD', 'objects']) {
    if (!existsSync(join(commonDir, must))) throw refuse(realRoot, `points at ${gitDir}, whose common dir has no ${must}`);
  }
  return { gitDir, commonDir };
}

/** readWorktreeGitDirsSync for async callers (same checks, same errors). */
export async function readWorktreeGitDirs(root: string): Promise<WorktreeGitDirs | undefined> {
  await realpath(root); // a missing root rejects as before
  return readWorktreeGitDirsSync(root);
}

/** readWorktreeGitDirs, throwing when `root` has no `.git` at all. */
export async function resolveWorktreeGitDir(root: string): Promise<WorktreeGitDirs> {
  const dirs = await readWorktreeGitDirs(root);
  if (!dirs) throw new WorkspaceError('bad-input', `${root} is not a git worktree (it has no .git); pass the worktree root`);
  return dirs;
}
