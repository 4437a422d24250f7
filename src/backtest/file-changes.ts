/** An upstream change as whole files: what each changed path holds at the parent and at the fix. */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git, showFile } from './git.js';
import type { FileChange } from './replay.js';

/** The paths `fix` changes against `parent` (no rename detection: a rename is a removal and a new file). */
export function changedPaths(repo: string, parent: string, fix: string): string[] {
  return git(repo, ['diff', '--no-renames', '--name-only', parent, fix]).split('\n').filter(Boolean);
}

/** The contents of `paths` at `parent` (before) and at `fix` (after); absent on one side for a new or removed file. */
export function fileChanges(repo: string, parent: string, fix: string, paths: readonly string[]): FileChange[] {
  return paths.map((path) => {
    const before = showFile(repo, parent, path);
    const after = showFile(repo, fix, path);
    return { path, ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) };
  });
}

/** Writes each change's `after` into `dir` (removing the files the change removes). */
export function writeChanges(dir: string, changes: readonly FileChange[]): void {
  for (const c of changes) {
    const p = join(dir, c.path);
    if (c.after === undefined) rmSync(p, { force: true });
    else {
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, c.after);
    }
  }
}
