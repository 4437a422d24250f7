import { mkdtemp, rm, copyFile, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { git } from './git.js';

/** The worktree's own git dir: read from its `.git` file (linked worktree) or `.git/` (main checkout). */
export async function gitDirOf(root: string): Promise<string> {
  const dotGit = join(root, '.git');
  const st = await stat(dotGit).catch(() => undefined);
  if (st?.isDirectory()) return dotGit;
  if (st?.isFile()) {
    const m = /^gitdir:\s*(.+)$/m.exec(await readFile(dotGit, 'utf8'));
    if (m?.[1]) return isAbsolute(m[1].trim()) ? m[1].trim() : resolve(dirname(dotGit), m[1].trim());
  }
  const r = await git(['rev-parse', '--absolute-git-dir'], { cwd: root });
  return r.stdout.trim();
}

/**
 * Runs `fn` with GIT_INDEX_FILE pointing at a throw-away copy of the worktree's index (a copy keeps
 * git's stat cache, so `git add -A` only rehashes files that changed). The real index is never touched.
 */
export async function withTempIndex<T>(root: string, fn: (env: Record<string, string>) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'proofpr-idx-'));
  const index = join(dir, 'index');
  try {
    await copyFile(join(await gitDirOf(root), 'index'), index).catch(() => undefined);
    return await fn({ GIT_INDEX_FILE: index });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Stages everything (`git add -A`, honouring .gitignore) into the given index and returns its tree. */
export async function stageAllAndWriteTree(root: string, env: Record<string, string>): Promise<string> {
  await git(['add', '-A', '--', '.'], { cwd: root, env });
  const { stdout } = await git(['write-tree'], { cwd: root, env });
  return stdout.trim();
}
