import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RepoConfig } from '../config/repo-config.js';
import type { TestRun } from '../agent/events.js';
import { executed } from '../agent/evidence/text.js';
import { runBaseline, type Baseline } from '../agent/verification/test-runs/baseline.js';
import type { CommandChoice } from '../detect/resolve-commands.js';
import { missingProgram, missingProgramFix } from '../detect/missing-program.js';
import { reporterHints } from '../detect/runner-hints.js';
import { describeTrace, traceRunners } from '../detect/test-runner.js';
import type { ExecPort } from '../workspace/exec-port.js';
import { git } from '../workspace/git.js';
import { readLinkedDirs } from '../workspace/linked-dirs.js';

export type Readiness = { ready: true; baseline: TestRun; full?: Baseline } | { ready: false; reason: string; baseline?: TestRun };

export interface ReadinessInput {
  /** The worktree, at the base commit, after setup. */
  root: string;
  gitDir: string;
  /** The config with the run's commands filled in (resolveRunCommands). */
  config: RepoConfig;
  test?: CommandChoice;
  /** resolveRunCommands' sentence when there is no test command. */
  missing?: string;
  exec: ExecPort;
  runDir: string;
  /** The base commit, checked out clean for the run (the harness's baseline, with the runner's report asked for). */
  baseSha: string;
  /** Writable inside the sandbox (the exec's TMPDIR). */
  scratchDir: string;
  signal?: AbortSignal;
  /** The install that could not run (resolveRunCommands' installUnavailable): the tests were tried without it. */
  skippedInstall?: { command: string; reason: string };
}

/** What test runners print when an import finds nothing: Node (CommonJS and ESM), Python, Go, Ruby. */
const MISSING_MODULE =
  /Cannot find (module|package) ['"]|ERR_MODULE_NOT_FOUND|ModuleNotFoundError: No module named|ImportError: No module named|no required module provides package|cannot load such file/;

/** The tests were tried without an install the run could not do, and failed for a missing module: not ready. */
async function neededInstall(input: ReadinessInput, command: string, outputPath: string | undefined): Promise<string | undefined> {
  const skipped = input.skippedInstall;
  if (!skipped || !outputPath) return undefined;
  const text = await readFile(outputPath, 'utf8').catch(() => '');
  const line = MISSING_MODULE.exec(text) ? text.split('\n').find((l) => MISSING_MODULE.test(l)) : undefined;
  if (!line) return undefined;
  return `the test command \`${command}\` needs the dependencies \`${skipped.command}\` installs (on the base commit: ${line.trim().slice(0, 160)}), and that install cannot run here: ${skipped.reason}`;
}

function fixFor(test: CommandChoice | undefined, config: RepoConfig): string {
  const set =
    test?.source === 'detected'
      ? `set test.command in .github/proofpr.yml (detected \`${test.command}\`: ${test.why})`
      : 'fix test.command in .github/proofpr.yml';
  return set + (config.test.report ? `; check that it writes test.report (${config.test.report})` : '');
}

/**
 * Readiness, part 2 (before the first model request): the test command once on the base commit, through
 * the run's sandboxed exec. No command, a command that cannot run, or counts that cannot be read end the
 * run before anything is spent, with a reason naming the fix. A red base is recorded, not fatal. The
 * worktree is put back to the base afterwards (tracked files restored, untracked non-ignored files removed),
 * so what the tests wrote does not become part of the change.
 */
export async function checkReadiness(input: ReadinessInput): Promise<Readiness> {
  const command = input.test?.command;
  if (!command) return { ready: false, reason: input.missing ?? 'no test command: set test.command in .github/proofpr.yml' };
  const full = await runBaseline({
    root: input.root,
    gitDir: input.gitDir,
    baseSha: input.baseSha,
    config: input.config,
    exec: input.exec,
    scratchDir: input.scratchDir,
    runDir: input.runDir,
    ...(input.signal ? { signal: input.signal } : {}),
  });
  const run = full.run;
  await restoreBase(input.root, input.gitDir);
  const install = await neededInstall(input, command, run.outputPath);
  if (install) return { ready: false, baseline: run, reason: install };
  if (run.counts !== null && executed(run.counts) !== null) return { ready: true, baseline: run, full };
  const exit = run.exitCode === null ? 'was killed or timed out' : `exited ${run.exitCode}`;
  const out = ` (output: ${join('tool-output', 'baseline-test-run.txt')} in the run folder${full.note ? `; ${full.note}` : ''})`;
  // Exit 127: the shell names the program it could not find; the reason names it and how to get it.
  const program =
    run.exitCode === 127 && run.outputPath ? missingProgram(await readFile(run.outputPath, 'utf8').catch(() => '')) : undefined;
  if (program)
    return {
      ready: false,
      baseline: run,
      reason: `the test command \`${command}\` could not run on the base commit: it exited 127${out}; ${await missingProgramFix(input.root, program, command)}`,
    };
  if (run.exitCode === null || run.exitCode === 126 || run.exitCode === 127) {
    return {
      ready: false,
      baseline: run,
      reason: `the test command \`${command}\` could not run on the base commit: it ${exit}${out}; ${fixFor(input.test, input.config)} (or setup.command, when it needs installed dependencies)`,
    };
  }
  const hint = await runnerHint(input.root, command, input.test?.runner);
  return {
    ready: false,
    baseline: run,
    reason:
      `the test command \`${command}\` ran on the base commit (it ${exit}) but its test counts could not be read${out}: ${hint}` +
      'set test.report in .github/proofpr.yml to a JUnit XML or Jest/Vitest JSON file the command writes, or use a reporter whose summary proofpr reads',
  };
}

/** "the command runs jest (package.json scripts.test: …): <how jest's counts become readable>; " — read from the scripts the command runs. */
async function runnerHint(root: string, command: string, detected: string | undefined): Promise<string> {
  const trace = await traceRunners(root, command).catch(() => undefined);
  const runners = trace?.runners.length ? trace.runners : detected ? [detected] : [];
  const hints = reporterHints(runners);
  const runs = trace ? describeTrace(trace) : undefined;
  return `${runs ? `the command ${runs}` : ''}${runs && hints ? ': ' : ''}${hints ?? ''}${runs || hints ? '; ' : ''}`;
}

/** Puts the worktree back at its commit: tracked files restored, untracked non-ignored files removed (dependency links kept). */
async function restoreBase(root: string, gitDir: string): Promise<void> {
  const env = { GIT_DIR: gitDir, GIT_WORK_TREE: root };
  const keep = (await readLinkedDirs(gitDir)).flatMap((l) => ['-e', `/${l.name}`]);
  await git(['reset', '--hard', '--quiet'], { cwd: root, env });
  await git(['clean', '-fdq', ...keep], { cwd: root, env });
}
