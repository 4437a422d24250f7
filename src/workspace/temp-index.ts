import { mkdtemp, rm, copyFile, realpath, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { git } from './git.js';
import { readLinkedDirs } from './linked-dirs.js';
import { resolveWorktreeGitDir, worktreeGitEnv } from './worktree-git-dir.js';

/** The worktree's own git dir, checked (see readWorktreeGitDirs): a rewritten `.git` pointer throws. */
export async function gitDirOf(root: string): Promise<string> {
  return (await resolveWorktreeGitDir(root)).gitDir;
}

/**
 * Runs `fn` with GIT_INDEX_FILE pointing at a throw-away copy of the worktree's index (a copy keeps
 * git's stat cache, so `git add -A` only rehashes files that changed), and GIT_DIR / GIT_WORK_TREE
 * pinning every git call made with that env to this worktree. `gitDir` is the one createWorktree
 * recorded; without it `<root>/.git` is read once and checked. The real index is never touched.
 */
export async function withTempIndex<T>(root: string, fn: (env: Record<string, string>) => Promise<T>, gitDir?: string): Promise<T> {
  const realRoot = await realpath(root);
  const dir = gitDir ?? (await gitDirOf(realRoot));
  const tmp = await mkdtemp(join(tmpdir(), 'proofpr-idx-'));
  const index = join(tmp, 'index');
  try {
    const real = join(dir, 'index');
    await copyFile(real, index).catch(() => undefined);
    // Keep the real index's mtime: git trusts a cached stat only for files older than the index
    // ("racy git"), so a fresh mtime on the copy would hide a same-size edit made in the same second.
    await stat(real)
      .then((st) => utimes(index, st.atime, st.mtime))
      .catch(() => undefined);
    return await fn({ ...worktreeGitEnv(realRoot, dir), GIT_INDEX_FILE: index });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Exclude entries as literal pathspecs relative to the root; entries outside the worktree are dropped. */
export function literalPathspecs(root: string, exclude: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of exclude) {
    let p = isAbsolute(raw) ? relative(root, raw) : raw;
    p = p
      .replace(/\\/g, '/')
      .replace(/^(\.\/)+/, '')
      .replace(/\/+$/, '');
    if (!p || p === '.' || p.split('/').includes('..')) continue;
    out.push(`:(literal)${p}`);
  }
  return out;
}

/**
 * `git add -A` (honouring .gitignore) into the index in `env`, leaving out `exclude` (paths relative to
 * the root: test reports, coverage) and the dependency links createWorktree made: those are reset to
 * HEAD afterwards (an untracked one drops out, a tracked one keeps its committed version). Not
 * `:(exclude)` pathspecs: git refuses those when they name an ignored path.
 */
export async function stageAll(root: string, env: Record<string, string>, exclude: readonly string[] = []): Promise<void> {
  const realRoot = env.GIT_WORK_TREE ?? (await realpath(root));
  const names = env.GIT_DIR ? (await readLinkedDirs(env.GIT_DIR)).map((l) => l.name) : [];
  await git(['add', '-A', '--', '.'], { cwd: realRoot, env });
  const out = literalPathspecs(realRoot, [...exclude, ...names]);
  if (out.length) await git(['reset', '-q', '--', ...out], { cwd: realRoot, env });
}

/** Stages everything (stageAll) into the given index and returns its tree. */
export async function stageAllAndWriteTree(root: string, env: Record<string, string>, exclude: readonly string[] = []): Promise<string> {
  await stageAll(root, env, exclude);
  const { stdout } = await git(['write-tree'], { cwd: env.GIT_WORK_TREE ?? root, env });
  return stdout.trim();
}
