import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { logger } from '../log.js';
import { DEPENDENCY_DIRS } from '../workspace/dependency-dirs.js';
import { closeWorld } from '../workspace/world.js';
import { createWorktree, type Worktree } from '../workspace/worktree.js';
import type { RunTaskInput } from './run-task-types.js';

const log = logger('run-task');

/** The worktree a run works in, with what every harness step needs to know about it. */
export interface Workspace {
  wt: Worktree;
  /** Per-run scratch folder: HOME and TMPDIR of every sandboxed process. */
  runTmp: string;
  /** Options for the harness's own git calls: the worktree's git dir, the test report left out. */
  git: { gitDir: string; exclude: string[] };
  /**
   * What the sandbox hides: proofpr's state, the real HOME, the source checkout (with its git dir). The
   * agent's world is the commit: what the checkout holds besides it (an ignored `.env`, a key written
   * after the worktree was made) is absent; the worktree, its git dirs and the linked dependency
   * folders are shown again on top.
   */
  hidePaths: string[];
  /** The worktree was made from a bare mirror (the App), not a caller's checkout. */
  mirror: boolean;
  /** Removes the scratch folder and the worktree (unless kept). */
  cleanup(keepWorktree: boolean): Promise<void>;
}

/** Step 1: a worktree on the task's branch at the base commit (pooled for mirrors), and a scratch folder. */
export async function prepareWorkspace(input: RunTaskInput): Promise<Workspace> {
  const bare = isBareRepo(input.repoDir);
  const wt = await createWorktree({
    repoDir: input.repoDir,
    baseRef: input.baseRef ?? 'HEAD',
    branch: input.branch,
    worktreesDir: input.worktreesDir,
    runId: input.runId,
    continueBranch: input.continueBranch ?? false,
    ...(input.gitToken ? { token: input.gitToken } : {}),
    pool: input.pool ?? (!input.keepWorktree && bare),
    // A checkout's installed dependencies (npm ci before an Action step) reach the agent's test runs.
    linkDirs: bare ? [] : [...DEPENDENCY_DIRS],
    logger: log,
  });
  let runTmp: string;
  try {
    runTmp = await mkdtemp(join(tmpdir(), `proofpr-${input.runId}-`));
  } catch (e) {
    await wt.remove().catch(() => undefined);
    throw e;
  }
  const report = input.config.test.report;
  return {
    wt,
    runTmp,
    git: { gitDir: wt.gitDir, exclude: report ? [report] : [] },
    mirror: bare,
    // The worktree and its git dir stay visible even though they lie under a hidden folder.
    hidePaths: [
      dirname(input.worktreesDir),
      dirname(input.runDir),
      homedir(),
      ...(bare ? [] : [gitCommonDir(input.repoDir), ...checkoutTop(input.repoDir)]),
    ],
    async cleanup(keepWorktree) {
      closeWorld(wt.path);
      await rm(runTmp, { recursive: true, force: true }).catch(() => undefined);
      if (input.keepWorktree || keepWorktree) return;
      await wt.remove().catch((e: Error) => log.warn({ err: e.message }, 'worktree removal failed'));
    },
  };
}

function gitCommonDir(dir: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: dir, encoding: 'utf8' }).trim();
  } catch {
    return join(dir, '.git');
  }
}

/** The source checkout's top folder (where untracked and ignored files live), unless it is `/`. */
function checkoutTop(dir: string): string[] {
  try {
    const top = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: dir, encoding: 'utf8' }).trim();
    return top && top !== '/' ? [top] : [];
  } catch {
    return [];
  }
}

function isBareRepo(dir: string): boolean {
  try {
    return execFileSync('git', ['rev-parse', '--is-bare-repository'], { cwd: dir, encoding: 'utf8' }).trim() === 'true';
  } catch {
    return false;
  }
}
