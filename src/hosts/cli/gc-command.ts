/**
 * `proofpr gc [--older-than-days N] [--repo DIR] [--dry-run]`: retention for $PROOFPR_HOME. Removes run
 * folders (runs/<id>/) older than N days (default 30); worktrees whose run process is gone (uncommitted
 * work is first committed as WIP on its branch); mirrors not fetched for N days that hold no unpushed
 * work; dependency cache entries (dep-cache/) not used for N days, then the least recently used until
 * the cache is at most --dep-cache-max-mb (default 5120); and in every mirror (and --repo) the
 * proofpr/* branches with no commit of their own. Branches with commits (WIP of unverified or aborted
 * runs) are kept.
 */
import { existsSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { proofprHome } from '../../config/home.js';
import { gcDependencyCache } from '../../workspace/dependency-cache-gc.js';
import { hasOwnCommits, pruneEmptyBranches } from '../../workspace/prune-branches.js';
import { sweepWorktrees } from '../../workspace/worktree-sweep.js';
import { git } from '../../workspace/git.js';
import { UsageError } from './usage-error.js';

export interface GcFlags {
  olderThanDays?: string;
  depCacheMaxMb?: string;
  repo?: string;
  dryRun?: boolean;
}

/** Bare mirrors under mirrors/ (folders ending in .git that hold a HEAD), at any depth. */
async function findMirrors(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (!e.isDirectory()) continue;
    const p = join(dir, e.name);
    if (e.name.endsWith('.git') && existsSync(join(p, 'HEAD'))) out.push(p);
    else out.push(...(await findMirrors(p)));
  }
  return out;
}

/** Last use of a mirror: its newest FETCH_HEAD, HEAD or packed-refs. */
async function lastUsed(mirror: string): Promise<number> {
  let t = 0;
  for (const f of ['FETCH_HEAD', 'HEAD', 'packed-refs', 'refs'])
    t = Math.max(t, (await stat(join(mirror, f)).catch(() => undefined))?.mtimeMs ?? 0);
  return t;
}

async function unpushedWork(mirror: string): Promise<boolean> {
  const list = await git(['for-each-ref', '--format=%(refname)', 'refs/heads/proofpr/'], { cwd: mirror });
  for (const ref of list.stdout.split('\n').filter(Boolean)) {
    const r = await git(['rev-list', '--count', ref, '--not', '--remotes'], { cwd: mirror });
    if (Number(r.stdout.trim()) > 0 && (await hasOwnCommits(mirror, ref))) return true;
  }
  return false;
}

export async function gcCommand(
  flags: GcFlags,
  env: NodeJS.ProcessEnv = process.env,
  out: (s: string) => void = (s) => process.stdout.write(s),
): Promise<number> {
  const days = flags.olderThanDays === undefined ? 30 : Number(flags.olderThanDays);
  if (!Number.isFinite(days) || days < 0) throw new UsageError('--older-than-days must be a number of days (0 or more)');
  const home = proofprHome(env);
  const cutoff = Date.now() - days * 86_400_000;
  const dry = flags.dryRun === true;
  const verb = dry ? 'would remove' : 'removed';
  let runs = 0;
  for (const e of await readdir(join(home, 'runs'), { withFileTypes: true }).catch(() => [])) {
    const p = join(home, 'runs', e.name);
    if (!e.isDirectory() || (await stat(p)).mtimeMs >= cutoff) continue;
    if (!dry) await rm(p, { recursive: true, force: true });
    runs++;
  }
  out(`runs: ${verb} ${runs} folder${runs === 1 ? '' : 's'} older than ${days} days\n`);

  const maxMb = flags.depCacheMaxMb === undefined ? 5120 : Number(flags.depCacheMaxMb);
  if (!Number.isFinite(maxMb) || maxMb < 0) throw new UsageError('--dep-cache-max-mb must be a number of MiB (0 or more)');
  const dc = await gcDependencyCache(join(home, 'dep-cache'), { unusedSince: cutoff, maxBytes: maxMb * 1024 * 1024, dryRun: dry });
  out(
    `dependency cache: ${verb} ${dc.removed.length} entr${dc.removed.length === 1 ? 'y' : 'ies'}, ${dc.keptEntries} kept (${(dc.keptBytes / 1048576).toFixed(1)} MiB)\n`,
  );

  const mirrors = await findMirrors(join(home, 'mirrors'));
  if (!dry && existsSync(join(home, 'worktrees'))) {
    const swept = await sweepWorktrees(join(home, 'worktrees'), mirrors);
    out(
      `worktrees: removed ${swept.removed.length} of runs that are gone${swept.salvaged.length ? ` (WIP committed on ${swept.salvaged.join(', ')})` : ''}\n`,
    );
  }
  // Before pruning branches: deleting a branch touches the refs that tell when a mirror was last used.
  const gone = new Set<string>();
  let removedMirrors = 0;
  for (const m of mirrors) {
    if ((await lastUsed(m)) >= cutoff) continue;
    if (await unpushedWork(m)) {
      out(`mirror ${m}: not used for ${days} days but holds unpushed work: kept\n`);
      continue;
    }
    const wt = await git(['worktree', 'list', '--porcelain'], { cwd: m }).catch(() => ({ stdout: '' }));
    if (wt.stdout.split('\n').filter((l) => l.startsWith('worktree ')).length > 1) continue;
    if (!dry) await rm(m, { recursive: true, force: true });
    gone.add(m);
    removedMirrors++;
  }
  out(`mirrors: ${verb} ${removedMirrors} not used for ${days} days\n`);
  const repos = [...mirrors.filter((m) => !gone.has(m)), ...(flags.repo ? [resolve(flags.repo)] : [])];
  for (const repo of repos) {
    const r = await pruneEmptyBranches(repo, { dryRun: dry });
    if (r.deleted.length || r.kept.length)
      out(
        `branches in ${repo}: ${dry ? 'would delete' : 'deleted'} ${r.deleted.length} empty (${r.deleted.join(', ') || '-'}), kept ${r.kept.length} with work (${r.kept.join(', ') || '-'})\n`,
      );
  }
  return 0;
}
