import type { RunnerName } from '../runners/types.js';

/**
 * An observer lets the harness read the reports of every runner call inside the maintainer's test
 * command **as written** (a composite script, a coverage wrapper, pre/post scripts, workspaces),
 * without changing the argv, cwd or files the code under test sees: only environment variables are
 * added (a preload through NODE_OPTIONS, a plugin through PYTHONPATH/PYTEST_PLUGINS, GOFLAGS) and
 * files are written into a fresh folder that only the harness created (`dir`); go test gets `-test.v=true` through GOFLAGS (a flag only `go test` defines), so its output is what `go test -v` prints.
 *
 * Each observed runner call writes one report file into `reportsDir(dir)`, named
 * `<runner>-<pid>-<n>.report` (runner: a RunnerName), whose content is what that runner's
 * `Runner.parse` reads (jest --json, vitest json, the harness's mocha reporter JSON, JUnit XML, …).
 * Report files are written at the end of the call (or atomically: write to `.tmp` then rename), so a
 * call that crashed leaves no half file. Observers never change a process's exit status or output.
 */
export interface Observer {
  /** A short name for the evidence (`node`, `python`, `go`). */
  name: string;
  /** Files the harness writes before the run (absolute paths under `dir`). */
  files(dir: string): Array<{ path: string; content: string }>;
  /**
   * Variables to set, given the environment the command would otherwise get (`base`): list-valued
   * variables are extended, never replaced (NODE_OPTIONS appended, PYTHONPATH prepended, …).
   */
  env(dir: string, base: Readonly<Record<string, string | undefined>>): Record<string, string>;
  /**
   * Runners whose report is the command's own output stream (go test made verbose through GOFLAGS): the
   * collector hands the whole output to that runner's parse. Absent when reports are files only.
   */
  outputRunners?: readonly RunnerName[];
}

export const reportsDir = (dir: string): string => `${dir}/reports`;
