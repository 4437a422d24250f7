import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Logger } from 'pino';
import type { RepoConfig } from '../../config/repo-config.js';
import { silentLogger } from '../../log.js';
import type { ExecPort } from '../../workspace/exec-port.js';
import { git } from '../../workspace/git.js';
import type { TestCounts } from '../events.js';
import { runTestCommand } from './run-test-command.js';

export interface RedGreenResult {
  passed: boolean;
  detail: string;
  /** The added or changed test files that were put on the base tree. */
  testFiles: string[];
  /** True when the tests failed on the base tree plus only the test changes (red before the fix). */
  failedBefore: boolean;
  exitCode?: number | null;
  counts?: TestCounts | null;
}

/** Installed dependencies are ignored by git, so the base worktree borrows the real one's. */
const SHARED_DIRS = ['node_modules', '.venv', 'venv'];

/**
 * Red → green (opt-in gate): checks out `baseSha` in a temporary worktree, copies over only the
 * changed test files (and removes deleted ones), runs `test.command` there and records whether it
 * failed. The temporary worktree is always removed.
 */
export async function redGreen(opts: {
  root: string;
  baseSha: string;
  config: Pick<RepoConfig, 'test'>;
  exec: ExecPort;
  testFiles: readonly string[];
  deletedTestFiles?: readonly string[];
  /** Where the temporary worktree goes; must be writable inside the sandbox (the exec's tmp). */
  scratchDir?: string;
  /** The worktree's git dir as createWorktree recorded it: the worktree commands go to it explicitly. */
  gitDir?: string;
  logger?: Logger;
}): Promise<RedGreenResult> {
  const log = opts.logger ?? silentLogger;
  const g = { cwd: opts.root, ...(opts.gitDir ? { env: { GIT_DIR: opts.gitDir } } : {}) };
  const testFiles = [...opts.testFiles];
  const command = opts.config.test.command;
  if (command === undefined) return { passed: false, detail: '`test.command` is missing in .github/proofpr.yml (needed by gate red-green)', testFiles, failedBefore: false };
  if (testFiles.length === 0) return { passed: true, detail: 'no test was added or changed: nothing to show failing before the change', testFiles, failedBefore: false };
  const tmp = await mkdtemp(join(opts.scratchDir ?? tmpdir(), 'proofpr-redgreen-'));
  const wt = join(tmp, 'base');
  try {
    await git(['worktree', 'add', '--detach', wt, opts.baseSha], g);
    for (const f of testFiles) {
      await mkdir(dirname(join(wt, f)), { recursive: true });
      await cp(join(opts.root, f), join(wt, f));
    }
    for (const f of opts.deletedTestFiles ?? []) await rm(join(wt, f), { force: true });
    for (const d of SHARED_DIRS) {
      if (existsSync(join(opts.root, d)) && !existsSync(join(wt, d))) await symlink(join(opts.root, d), join(wt, d));
    }
    const { run, output } = await runTestCommand({ cwd: wt, command, config: opts.config, exec: opts.exec, treeHash: '' });
    const c = run.counts;
    // Red only when the failure is the tests' own: failed tests counted, or a failing exit whose output
    // names a changed test file (a suite that does not even load without the fix). A broken
    // environment on the base tree must not become a "failed before the fix" claim.
    const named = testFiles.some((f) => output.includes(f) || output.includes(basename(f)));
    const failedBefore = (c?.failed ?? 0) > 0 || (run.exitCode !== null && run.exitCode !== 0 && named);
    const seen = `exit ${run.exitCode ?? 'none (timed out)'}; ${c ? `${c.passed} passed, ${c.failed} failed` : 'counts unknown'}`;
    const files = testFiles.join(', ');
    const detail = failedBefore
      ? `the changed tests (${files}) failed on the base commit ${opts.baseSha.slice(0, 12)} (${seen}): they catch what the change fixes`
      : `the changed tests (${files}) pass on the base commit ${opts.baseSha.slice(0, 12)} too (${seen}): add a test that fails without the fix`;
    return { passed: failedBefore, detail, testFiles, failedBefore, exitCode: run.exitCode, counts: c };
  } catch (e) {
    return { passed: false, detail: `could not run the tests on the base commit: ${(e as Error).message}`, testFiles, failedBefore: false };
  } finally {
    await git(['worktree', 'remove', '--force', wt], g).catch((e: Error) => log.warn({ err: e.message }, 'red-green: worktree remove failed'));
    await rm(tmp, { recursive: true, force: true });
    await git(['worktree', 'prune'], g).catch(() => undefined);
  }
}
