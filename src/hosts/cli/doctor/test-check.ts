/**
 * A dry test run: the test command (configured or detected) on a clean checkout of HEAD, through the same
 * exec (sandbox, scrubbed env, timeout) and report request as a run's baseline, showing the counts the
 * harness can read. The setup command is not run (it may install things); dependency folders of the
 * checkout (node_modules, .venv, …) are linked in as for a run. The checkout is a standalone clone
 * sharing the repository's objects: doctor only inspects the repository, so it registers no worktree
 * there (a killed doctor leaves nothing in its `git worktree list`).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RepoConfig } from '../../../config/repo-config.js';
import type { ResolvedCommands } from '../../../detect/resolve-commands.js';
import { runBaseline } from '../../../agent/verification/test-runs/baseline.js';
import { createExec } from '../../../workspace/exec.js';
import { resolveCommit } from '../../../workspace/git.js';
import { reporterHints } from '../../../detect/runner-hints.js';
import { describeTrace, traceRunners } from '../../../detect/test-runner.js';
import { missingProgram, missingProgramFix } from '../../../detect/missing-program.js';
import { corepackFailure, isSignatureFailure } from '../../../run/corepack-failure.js';
import type { CheckResult } from './check.js';

/**
 * The fix when the counts could not be read, naming the runner the project really uses: read from the
 * scripts the command runs (npm run chains, workspaces, wrappers), else from devDependencies.
 */
export async function countsFix(repoDir: string, command: string): Promise<string> {
  const trace = await traceRunners(repoDir, command).catch(() => undefined);
  const report = 'or set test.report to the JUnit XML or Jest/Vitest JSON file the command writes';
  if (!trace?.runners.length)
    return `no test runner was found in \`${command}\` or the package.json scripts it runs: set test.command to the command that runs your tests (its output must show a runner's summary), ${report}`;
  const hints = reporterHints(trace.runners);
  return `\`${command}\` ${describeTrace(trace) ?? ''}${hints ? `: ${hints}` : ''}; ${report}`;
}

/**
 * The fix for a dry run whose counts could not be read, from its output: a program the shell could not
 * find (exit 127) is named with how to get it; corepack failing inside the command (a shim that cannot
 * verify a download) gets corepack's fix; else the runner's reporter hint (countsFix).
 */
export async function unreadFix(repoDir: string, command: string, exitCode: number | null, output: string): Promise<string> {
  const program = missingProgram(output);
  // 127 is the shell's "command not found"; a package manager may exit 1 and say the script's 127.
  const notFound = exitCode === 127 || /\b(exit code|code:?|status) 127\b/i.test(output);
  if (program && notFound) return missingProgramFix(repoDir, program, command);
  if (/corepack/i.test(output) && isSignatureFailure(output)) {
    const tool = /\b(pnpm|yarn)\b/.exec(output)?.[1] ?? /\b(pnpm|yarn)\b/.exec(command)?.[1] ?? 'the package manager';
    return corepackFailure(tool, command, output, { cwd: repoDir, where: `needed by \`${command}\`` }).fix;
  }
  if (exitCode === 127)
    return `\`${command}\` exited 127: a program it calls was not found; install it on this machine, or set test.command to a command this machine has`;
  return countsFix(repoDir, command);
}

export async function checkTestRun(repoDir: string, resolved: ResolvedCommands, home?: string): Promise<CheckResult> {
  const name = 'dry test run';
  if (!resolved.test)
    return { name, status: 'fail', detail: resolved.missing ?? 'no test command', fix: 'set test.command in .github/proofpr.yml' };
  const sha = await resolveCommit(repoDir, 'HEAD').catch(() => undefined);
  if (!sha) return { name, status: 'skip', detail: `${repoDir} has no commit yet: nothing to check out` };
  const config: RepoConfig = resolved.config;
  const tmp = await mkdtemp(join(tmpdir(), 'proofpr-doctor-'));
  let dispose: (() => Promise<void>) | undefined;
  try {
    const handle = await createExec({
      root: repoDir,
      runTmp: join(tmp, 'run'),
      sandbox: config.sandbox,
      extraEnvNames: config.env,
      ...(home ? { hidePaths: [home] } : {}),
    });
    dispose = handle.dispose;
    const b = await runBaseline({
      root: repoDir,
      baseSha: sha,
      config,
      exec: handle.exec,
      scratchDir: join(tmp, 'run', 'tmp'),
      runDir: join(tmp, 'out'),
      standalone: true,
    });
    const c = b.counts;
    const where = `\`${resolved.test.command}\` (${resolved.test.source}) on ${sha.slice(0, 12)}${handle.sandbox === 'bwrap' ? ' in the sandbox' : ''}`;
    const exit = b.run.exitCode === null ? 'killed or timed out' : `exit ${b.run.exitCode}`;
    if (!b.countsKnown || !c)
      return {
        name,
        status: 'fail',
        detail: `${where}: ${exit}, counts unknown${b.note ? ` (${b.note})` : ''}`,
        fix: await unreadFix(
          repoDir,
          resolved.test.command,
          b.run.exitCode,
          b.run.outputPath ? await readFile(b.run.outputPath, 'utf8').catch(() => '') : '',
        ),
      };
    const counts = `${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped (from ${b.run.source})`;
    if (b.executed < config.test.min_tests)
      return {
        name,
        status: 'fail',
        detail: `${where}: ${exit}, ${counts}: fewer than test.min_tests (${config.test.min_tests})`,
        fix: 'check that the command finds your tests',
      };
    return {
      name,
      status: c.failed > 0 || b.run.exitCode !== 0 ? 'warn' : 'ok',
      detail: `${where}: ${exit}, ${counts}${c.failed > 0 ? ' — the base is red; runs record it' : ''}`,
    };
  } catch (e) {
    return { name, status: 'fail', detail: (e as Error).message };
  } finally {
    await dispose?.().catch(() => undefined);
    await rm(tmp, { recursive: true, force: true });
  }
}
