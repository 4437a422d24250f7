import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

/** One entry the walk meets. */
export interface WalkEntry {
  /** Root-relative POSIX path of the entry. */
  rel: string;
  /** Root-relative path of the folder it is in ('' for the root). */
  parent: string;
  dirent: Dirent;
}

export interface WalkOptions {
  /** The folder to start in, root-relative ('' for the root, the default). */
  from?: string;
  /** Entries looked at (skipped ones included) before the walk stops as truncated. */
  cap: number;
  /** Entries neither visited nor descended into (`.git`, `node_modules`, ...). */
  skip?: (e: Dirent) => boolean;
}

/** 'complete': every entry was visited; 'stopped': a visit returned 'stop'; 'truncated': the cap was hit. */
export type WalkEnd = 'complete' | 'stopped' | 'truncated';

/**
 * The one capped walk of a worktree (secret and link index, Read-deny checks, sandbox mounts): depth
 * first, synchronous, never following symlinks (a link is visited, not entered), folders it cannot read
 * passed over. Every entry counts towards `cap`, skipped ones too, so a huge ignored folder still ends
 * the walk. Descends into every directory that is not skipped.
 */
export function walkTree(root: string, visit: (e: WalkEntry) => void | 'stop', opts: WalkOptions): WalkEnd {
  let seen = 0;
  const stack = [opts.from ?? ''];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (++seen > opts.cap) return 'truncated';
      if (opts.skip?.(e)) continue;
      const rel = dir === '' ? e.name : `${dir}/${e.name}`;
      if (visit({ rel, parent: dir, dirent: e }) === 'stop') return 'stopped';
      if (e.isDirectory()) stack.push(rel);
    }
  }
  return 'complete';
}
