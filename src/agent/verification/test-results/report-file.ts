import { lstat, realpath, unlink } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';

/**
 * Deletes `test.report` before the harness's own run so only a report that run writes can count. Only
 * inside the worktree: the report's folder must resolve (symlinks followed) to a folder under `root`,
 * and a symlinked report is unlinked, never its target. Returns what happened, for the log; never throws.
 */
export async function removeReport(root: string, report: string): Promise<'removed' | 'absent' | 'outside' | 'failed'> {
  const path = isAbsolute(report) ? report : join(root, report);
  try {
    const realRoot = await realpath(root);
    const dir = await realpath(dirname(path)).catch(() => undefined);
    if (dir === undefined) return 'absent';
    const rel = relative(realRoot, dir);
    if (rel.startsWith('..') || isAbsolute(rel)) return 'outside';
    const target = join(dir, basename(path));
    if (!(await lstat(target).catch(() => undefined))) return 'absent';
    await unlink(target);
    return 'removed';
  } catch {
    return 'failed';
  }
}
