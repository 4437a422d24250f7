import { git } from '../../../workspace/git.js';

/** Paths that differ between two trees of the worktree's repository; empty when git can't tell. */
export async function changedFiles(root: string, fromTree: string, toTree: string, gitDir?: string): Promise<string[]> {
  try {
    const r = await git(['diff-tree', '-r', '--name-only', '--no-renames', fromTree, toTree], {
      cwd: root,
      config: { 'core.quotePath': 'false' },
      ...(gitDir ? { env: { GIT_DIR: gitDir } } : {}),
    });
    return r.stdout.split('\n').filter((l) => l.trim() !== '');
  } catch {
    return [];
  }
}
