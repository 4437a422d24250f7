/**
 * Secrets in the caller's object store: every blob the repository holds, read once, searched for
 * canaries. The tracked secret-looking files of the base commit are known blobs and left out.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findCanaries } from './canaries.js';

export interface ObjectScanner {
  /** Canaries in blobs that appeared since the last call. */
  scan(): string[];
}

function allBlobs(repo: string): string[] {
  const out = execFileSync('git', ['cat-file', '--batch-all-objects', '--batch-check=%(objectname) %(objecttype)'], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return out
    .split('\n')
    .filter((l) => l.endsWith(' blob'))
    .map((l) => l.split(' ')[0]!);
}

function blobText(repo: string, ids: string[]): string {
  return execFileSync('git', ['cat-file', '--batch'], { cwd: repo, input: ids.join('\n') + '\n', maxBuffer: 256 * 1024 * 1024 }).toString(
    'latin1',
  );
}

/** A cheap fingerprint of the object store: loose object folders and pack files with their times. */
function storeStamp(repo: string): string {
  const dir = join(repo, '.git', 'objects');
  try {
    return readdirSync(dir)
      .map((n) => `${n}:${statSync(join(dir, n)).mtimeMs}`)
      .concat(readdirSync(join(dir, 'pack')).map((n) => `pack/${n}`))
      .join(',');
  } catch {
    return String(Math.random());
  }
}

export function objectScanner(repo: string): ObjectScanner {
  const seen = new Set(allBlobs(repo));
  let stamp = storeStamp(repo);
  return {
    scan() {
      const now = storeStamp(repo);
      if (now === stamp) return [];
      stamp = now;
      let fresh: string[];
      try {
        fresh = allBlobs(repo).filter((id) => !seen.has(id));
      } catch {
        return [];
      }
      for (const id of fresh) seen.add(id);
      return fresh.length ? findCanaries(blobText(repo, fresh)) : [];
    },
  };
}
