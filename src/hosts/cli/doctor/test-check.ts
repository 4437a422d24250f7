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

/** Well-known pytest plugins by an option of theirs (a hint in a message; any other option is named as it is). */
const PYTEST_PLUGIN_OPTIONS: Array<[RegExp, string]> = [
  [/^--cov\b/, 'pytest-cov'],
  [/^(-n\b|--numprocesses\b|--dist\b)/, 'pytest-xdist'],
  [/^--timeout\b/, 'pytest-timeout'],
  [/^--benchmark/, 'pytest-benchmark'],
  [/^--reruns\b/, 'pytest-rerunfailures'],
  [/^--asyncio-mode\b/, 'pytest-asyncio'],
  [/^--mypy\b/, 'pytest-mypy'],
];

/**
 * The runner's own first error line, when it ran and stopped before counting (pytest's usage error, an
 * import that finds nothing), and what it says is missing. Undefined when the output has none.
 */
export function runnerError(output: string): { line: string; missing?: string } | undefined {
  const usage = /^(?:ERROR: |\S+: error: )?.*unrecognized arguments: (.+)$/m.exec(output);
  if (usage) {
    const option = (usage[1] ?? '').trim().split(/\s+/)[0] ?? '';
    const plugin = PYTEST_PLUGIN_OPTIONS.find(([re]) => re.test(option))?.[1];
    return {
      line: usage[0].trim(),
      missing: plugin
        ? `${plugin} (its ${option.replace(/=.*/, '')} option is in pytest's addopts)`
        : `the pytest plugin that provides ${option}`,
    };
  }
  const mod =
    /^.*(?:ModuleNotFoundError|ImportError): No module named '([^']+)'.*$/m.exec(output) ??
    /^.*Cannot find (?:module|package) '([^']+)'.*$/m.exec(output);
  if (mod) return { line: mod[0].trim(), missing: `the module ${mod[1]}` };
  return undefined;
}

/** The fix when the runner said what is missing: the install that brings it (doctor does not run setup.command). */
function missingFix(err: { line: string; missing?: string }, setup: string | undefined): string {
  const what = err.missing ?? 'a dependency';
  return setup
    ? `${what} is not installed here: doctor does not run setup.command (a run does, before its baseline); run \`${setup}\` in this checkout and check again, and make sure it installs ${what.replace(/ \(.*\)$/, '')}`
    : `${what} is not installed: install it (e.g. \`python3 -m pip install ${/^pytest-|^the module /.test(what) ? what.replace(/^the module /, '').replace(/ \(.*\)$/, '') : '<package>'}\`) and set setup.command in .github/proofpr.yml to the install, so every run has it`;
}

/**
 * The fix for a dry run whose counts could not be read, from its output: a program the shell could not
 * find (exit 127) is named with how to get it; corepack failing inside the command (a shim that cannot
 * verify a download) gets corepack's fix; else the runner's reporter hint (countsFix).
 */
export async function unreadFix(
  repoDir: string,
  command: string,
  exitCode: number | null,
  output: string,
  setup?: string,
): Promise<string> {
  const ran = runnerError(output);
  if (ran) return missingFix(ran, setup);
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
    if (!b.countsKnown || !c) {
      const output = b.run.outputPath ? await readFile(b.run.outputPath, 'utf8').catch(() => '') : '';
      const said = runnerError(output)?.line;
      return {
        name,
        status: 'fail',
        detail: `${where}: ${exit}, counts unknown${said ? `: the runner said \`${said.slice(0, 200)}\`` : ''}${b.note ? ` (${b.note})` : ''}`,
        fix: await unreadFix(repoDir, resolved.test.command, b.run.exitCode, output, resolved.setup?.command),
      };
    }
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
