import { createHash } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { z } from 'zod';
import { WorkspaceError } from './errors.js';
import { git, scrub } from './git.js';
import { withLock } from './lock.js';
import { remoteError } from './remote-errors.js';
import { syncHeads } from './sync-heads.js';
import { logger as rootLogger } from '../log.js';

export interface EnsureMirrorOptions {
  /** PROOFPR_HOME: mirrors live under `<home>/mirrors/<host>/<owner>/<name>.git`. */
  home: string;
  /** https://, http://, ssh://, git@host:owner/name or file:// URL; never with credentials in it. */
  url: string;
  /** Sent as an http.extraheader for each network command only; never stored. */
  token?: string;
  logger?: Logger;
  /** How long to wait for another process's fetch of the same repository (default 10 minutes). */
  lockTimeoutMs?: number;
}

const optionsSchema = z.object({
  home: z.string().min(1, 'home must be the PROOFPR_HOME folder'),
  url: z.string().min(1, 'url must be the repository URL'),
  token: z.string().min(1).optional(),
});

/** `<host>/<owner>/<name>` for a repository URL (file URLs: `file/<parent>-<hash>/<name>`). */
export function mirrorKey(url: string): string[] {
  const clean = (s: string): string => s.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_') || '_';
  const scp = /^[\w.-]+@([\w.-]+):(.+)$/.exec(url);
  let host: string;
  let path: string;
  if (scp?.[1] && scp[2]) {
    host = scp[1];
    path = scp[2];
  } else {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new WorkspaceError('bad-input', 'url is not a repository URL (use https://host/owner/name.git, ssh:// or file://)');
    }
    if (u.password || (u.username && u.protocol.startsWith('http'))) {
      throw new WorkspaceError('bad-input', 'url must not carry credentials; pass the token in the token option instead');
    }
    if (u.protocol === 'file:') {
      const p = fileURLToPath(u).replace(/\/+$/, '');
      const hash = createHash('sha1').update(dirname(p)).digest('hex').slice(0, 10);
      return ['file', `${clean(basename(dirname(p)))}-${hash}`, clean(basename(p).replace(/\.git$/, ''))];
    }
    host = u.port ? `${u.hostname}_${u.port}` : u.hostname;
    path = u.pathname;
  }
  const parts = path
    .replace(/\.git\/?$/, '')
    .split('/')
    .filter(Boolean);
  const name = parts.pop();
  if (!name) throw new WorkspaceError('bad-input', 'url has no repository name (expected …/owner/name)');
  return [clean(host), clean(parts.join('_') || '_'), clean(name)];
}

const exists = async (p: string): Promise<boolean> => (await stat(p).catch(() => undefined)) !== undefined;

async function cloneInto(url: string, tmp: string, token: string | undefined, log: Logger): Promise<void> {
  const base = ['clone', '--bare', '--no-tags', '--quiet'];
  try {
    await git([...base, '--filter=blob:none', '--', url, tmp], { cwd: dirname(tmp), token });
  } catch (e) {
    const err = remoteError(e, 'cloning the repository', 'contents: read');
    if (err !== e || !/filter/i.test((e as Error).message)) throw err;
    log.info('server refused a partial clone; doing a full clone');
    await rm(tmp, { recursive: true, force: true });
    await git([...base, '--', url, tmp], { cwd: dirname(tmp), token });
  }
  // Reflogs keep every old tip of every branch (a branch reset by a re-run stays recoverable).
  await git(['config', 'core.logAllRefUpdates', 'true'], { cwd: tmp });
  // Work branches are ours locally; the remote's copies live under refs/remotes/origin/proofpr/.
  const { stdout } = await git(['for-each-ref', '--format=delete %(refname)', 'refs/heads/proofpr/'], { cwd: tmp });
  if (stdout.trim()) await git(['update-ref', '--stdin'], { cwd: tmp, input: stdout });
}

/**
 * One bare mirror per repository: cloned blob-less the first time (full clone when the server cannot
 * filter), then refreshed with an incremental fetch on every call, under a per-repository lock.
 * Remote branches land in refs/remotes/origin/*; refs/heads/* follow them except proofpr/* (local work).
 */
export async function ensureMirror(opts: EnsureMirrorOptions): Promise<{ dir: string }> {
  const o = optionsSchema.parse(opts);
  const log = (opts.logger ?? rootLogger('workspace')).child({ op: 'mirror' });
  const dir = join(o.home, 'mirrors', ...mirrorKey(o.url)) + '.git';
  const safeUrl = scrub(o.url);
  await mkdir(dirname(dir), { recursive: true });
  if (!(await exists(join(dir, 'HEAD')))) {
    const started = Date.now();
    const tmp = `${dir}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    try {
      await cloneInto(o.url, tmp, o.token, log);
      await rename(tmp, dir).catch(async (e: NodeJS.ErrnoException) => {
        // Someone else finished first: theirs is as good as ours.
        if (e.code !== 'EEXIST' && e.code !== 'ENOTEMPTY') throw e;
      });
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
    log.info({ dir, url: safeUrl, ms: Date.now() - started }, 'mirror cloned');
  }
  await withLock(
    join(dir, 'proofpr.lock'),
    async () => {
      const started = Date.now();
      await git(['fetch', '--prune', '--no-tags', '--quiet', 'origin', '+refs/heads/*:refs/remotes/origin/*'], {
        cwd: dir,
        token: o.token,
      }).catch((e: unknown) => {
        throw remoteError(e, 'fetching the repository', 'contents: read');
      });
      await syncHeads(dir);
      log.info({ dir, url: safeUrl, ms: Date.now() - started }, 'mirror fetched');
    },
    { timeoutMs: opts.lockTimeoutMs },
  );
  return { dir };
}
