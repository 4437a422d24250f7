import { hostname } from 'node:os';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Who owns a run's worktree: written next to it (never inside, or `git add -A` would commit it). */
export interface WorktreeMarker {
  pid: number;
  host: string;
  runId: string;
  path: string;
  /** The repository's common git dir (where `git worktree` must be run from). */
  commonDir: string;
  branch: string;
  createdAt: string;
}

export const MARKER_SUFFIX = '.owner.json';

export function markerPath(worktreesDir: string, runId: string): string {
  return join(worktreesDir, `${runId}${MARKER_SUFFIX}`);
}

export async function writeMarker(worktreesDir: string, m: Omit<WorktreeMarker, 'pid' | 'host' | 'createdAt'>): Promise<void> {
  const full: WorktreeMarker = { ...m, pid: process.pid, host: hostname(), createdAt: new Date().toISOString() };
  await writeFile(markerPath(worktreesDir, m.runId), JSON.stringify(full, null, 2), { flag: 'wx' });
}

export async function readMarker(file: string): Promise<WorktreeMarker | undefined> {
  try {
    const m = JSON.parse(await readFile(file, 'utf8')) as Partial<WorktreeMarker>;
    if (typeof m.pid !== 'number' || typeof m.path !== 'string' || typeof m.commonDir !== 'string') return undefined;
    return m as WorktreeMarker;
  } catch {
    return undefined;
  }
}

export async function removeMarker(worktreesDir: string, runId: string): Promise<void> {
  await rm(markerPath(worktreesDir, runId), { force: true });
}
