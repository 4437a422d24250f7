import { hostname } from 'node:os';
import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { WorkspaceError } from './errors.js';

export interface LockOptions {
  /** Give up after this long (default 10 minutes). */
  timeoutMs?: number;
  /** First wait between attempts (doubles up to 500 ms; default 25 ms). */
  pollMs?: number;
}

interface Owner {
  pid: number;
  host: string;
  at: string;
}

/** True when a process with this pid exists (EPERM means it exists but is someone else's). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(path: string): Promise<Owner | undefined> {
  try {
    const o = JSON.parse(await readFile(path, 'utf8')) as Partial<Owner>;
    return typeof o.pid === 'number' ? { pid: o.pid, host: String(o.host ?? ''), at: String(o.at ?? '') } : undefined;
  } catch {
    return undefined;
  }
}

function isStale(o: Owner | undefined): boolean {
  // A file we cannot read yet is being written right now: not stale. A lock from another host is never
  // judged by pid (shared disks); only a dead local pid makes it stale.
  return o !== undefined && o.host === hostname() && !pidAlive(o.pid);
}

/** A lock file nobody managed to write an owner into within 5 s was left by a crash mid-creation. */
async function unreadableForLong(path: string): Promise<boolean> {
  const st = await stat(path).catch(() => undefined);
  return st !== undefined && Date.now() - st.mtimeMs > 5000;
}

/** Moves a stale lock out of the way; puts it back if it turned out to be freshly taken by someone else. */
async function breakStale(path: string, stale: Owner | undefined): Promise<void> {
  const aside = `${path}.stale-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    await rename(path, aside);
  } catch {
    return;
  }
  const moved = await readOwner(aside);
  if (moved && (moved.pid !== stale?.pid || moved.at !== stale?.at)) await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

/**
 * Takes an exclusive lock file (created with O_EXCL, holding our pid) and returns its release function.
 * Waits while another live process holds it; a lock left by a dead process on this host is broken.
 */
export async function acquireLock(path: string, opts: LockOptions = {}): Promise<() => Promise<void>> {
  const timeoutMs = opts.timeoutMs ?? 10 * 60_000;
  const start = Date.now();
  let wait = opts.pollMs ?? 25;
  const me: Owner = { pid: process.pid, host: hostname(), at: `${new Date().toISOString()}-${Math.random().toString(36).slice(2)}` };
  for (;;) {
    try {
      const fh = await open(path, 'wx');
      try {
        await fh.writeFile(JSON.stringify(me));
      } finally {
        await fh.close();
      }
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        const cur = await readOwner(path);
        if (cur && cur.pid === me.pid && cur.at === me.at) await unlink(path).catch(() => undefined);
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = await readOwner(path);
    if (isStale(owner) || (owner === undefined && (await unreadableForLong(path)))) {
      await breakStale(path, owner);
      continue;
    }
    if (Date.now() - start > timeoutMs) {
      throw new WorkspaceError(
        'lock-timeout',
        `timed out after ${Math.round(timeoutMs / 1000)} s waiting for the lock ${path} held by pid ${owner?.pid ?? '?'} ` +
          `on ${owner?.host ?? '?'}; wait for that run to finish, or delete the file if that process is gone`,
      );
    }
    await new Promise((r) => setTimeout(r, wait + Math.floor(Math.random() * wait)));
    wait = Math.min(wait * 2, 500);
  }
}

/** Runs `fn` while holding the lock file at `path`; always releases it. */
export async function withLock<T>(path: string, fn: () => Promise<T>, opts?: LockOptions): Promise<T> {
  const release = await acquireLock(path, opts);
  try {
    return await fn();
  } finally {
    await release();
  }
}
