import { hostname } from 'node:os';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { git } from './git.js';
import { pidAlive, withLock } from './lock.js';
import { wipCommit } from './publish.js';
import { resolveWorktreeGitDir, worktreeGitEnv } from './worktree-git-dir.js';
import { MARKER_SUFFIX, readMarker, removeMarker } from './worktree-marker.js';
import { removeWorktreeUnlocked, repoLockPath } from './worktree-remove.js';
import { logger as rootLogger } from '../log.js';

export interface SweepOptions {
  /** Commit uncommitted changes of a dead run as a WIP commit on its branch before removing it (default true). */
  salvage?: boolean;
  identity?: { name: string; email: string };
  logger?: Logger;
}

export interface SweepResult {
  /** Worktree paths removed because their owner process is gone. */
  removed: string[];
  /** Branches that received a WIP commit of a dead run's uncommitted changes. */
  salvaged: string[];
}

const BOT = { name: 'proofpr[bot]', email: 'proofpr[bot]@users.noreply.github.com' };

async function salvage(
  path: string,
  commonDir: string,
  branch: string,
  runId: string,
  identity: { name: string; email: string },
): Promise<boolean> {
  if (!(await stat(join(path, '.git')).catch(() => undefined))) return false;
  // Throws 'tampered' (the worktree is then kept) when `.git` leads anywhere but this repository's worktrees/.
  const dirs = await resolveWorktreeGitDir(path);
  if (dirs.commonDir !== (await realpath(commonDir).catch(() => commonDir))) return false;
  const env = worktreeGitEnv(await realpath(path), dirs.gitDir);
  const head = await git(['symbolic-ref', '--quiet', 'HEAD'], { cwd: path, env, okCodes: [0, 1, 128] });
  if (head.stdout.trim() !== `refs/heads/${branch}`) return false;
  const r = await wipCommit({
    worktree: path,
    gitDir: dirs.gitDir,
    identity,
    message: `changes of run ${runId}, salvaged after its process died`,
  });
  return !('nothing' in r);
}

/**
 * Start-up sweep: removes every worktree under `worktreesDir` whose owner process (per its marker) is
 * dead, after saving any uncommitted changes as a WIP commit on its branch (never lose work), then runs
 * `git worktree prune` in each repository seen plus `repoDirs`.
 */
export async function sweepWorktrees(worktreesDir: string, repoDirs: string[] = [], opts: SweepOptions = {}): Promise<SweepResult> {
  const log = (opts.logger ?? rootLogger('workspace')).child({ op: 'sweep' });
  const result: SweepResult = { removed: [], salvaged: [] };
  const repos = new Set<string>();
  for (const dir of repoDirs) {
    const r = await git(['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: dir, okCodes: [0, 128] });
    if (r.code === 0) repos.add(r.stdout.trim());
  }
  const names = await readdir(worktreesDir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith(MARKER_SUFFIX))) {
    const m = await readMarker(join(worktreesDir, name));
    if (!m || m.host !== hostname() || pidAlive(m.pid)) continue;
    repos.add(m.commonDir);
    if (!(await stat(m.commonDir).catch(() => undefined))) {
      await removeMarker(worktreesDir, m.runId);
      continue;
    }
    const removed = await withLock(repoLockPath(m.commonDir), async () => {
      if (opts.salvage !== false) {
        try {
          if (await salvage(m.path, m.commonDir, m.branch, m.runId, opts.identity ?? BOT)) result.salvaged.push(m.branch);
        } catch (e) {
          // Keep the worktree rather than lose its changes; the next sweep tries again.
          log.warn({ path: m.path, err: (e as Error).message }, 'could not save the changes of a dead run; worktree kept');
          return false;
        }
      }
      await removeWorktreeUnlocked(m.commonDir, m.path);
      return true;
    });
    if (!removed) continue;
    await removeMarker(worktreesDir, m.runId);
    result.removed.push(m.path);
    log.info({ path: m.path, pid: m.pid, branch: m.branch }, 'removed the worktree of a dead run');
  }
  for (const dir of repos) await git(['worktree', 'prune'], { cwd: dir, okCodes: [0, 128] });
  return result;
}
