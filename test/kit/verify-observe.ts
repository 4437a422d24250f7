/**
 * The observer tests' runs (node, python, go, node-tap): a project copied or written into a temp folder,
 * a command run through bash as written, and the same command with an observer's files and environment
 * added, its reports read back with the runner each report's name gives. Starts processes: integration
 * tests only.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { reportsDir, type Observer } from '../../src/agent/verification/test-results/observe/types.js';
import { runnerNamed } from '../../src/agent/verification/test-results/runners/index.js';
import type { RunnerReport } from '../../src/agent/verification/test-results/runners/types.js';
import { tempDir } from './temp.js';
import { writeFiles } from './verify-files.js';

export type Env = Record<string, string | undefined>;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One report file an observed runner call wrote, parsed by the runner its name gives ('?' when it names none). */
export interface ObservedReport {
  runner: string;
  file: string;
  report: RunnerReport | undefined;
}

/** A copy of the fixture folder `fixture` in a new temp folder. */
export function fixtureCopy(fixture: string, prefix: string): string {
  const root = tempDir(prefix);
  cpSync(fixture, root, { recursive: true });
  return root;
}

/** `command` as written, through bash -c in `cwd`. */
export function run(cwd: string, command: string, env: Env, timeout = 120_000): Run {
  const r = spawnSync('bash', ['-c', command], { cwd, env, encoding: 'utf8', timeout });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * `command` as written with only the observer's files (in a new folder, `dir`) and environment added to
 * `base`, the environment it would get without the observer.
 */
export function runObserved(observer: Observer, cwd: string, command: string, base: Env, timeout?: number): Run & { dir: string } {
  const dir = tempDir('proofpr-observer-');
  writeFiles(dir, Object.fromEntries(observer.files(dir).map((f) => [relative(dir, f.path), f.content])));
  return { ...run(cwd, command, { ...base, ...observer.env(dir, base) }, timeout), dir };
}

/** The files in the observer's reports folder (reports and `.seen` markers), sorted. */
export const reportFiles = (dir: string): string[] => (existsSync(reportsDir(dir)) ? readdirSync(reportsDir(dir)).sort() : []);

/** Every file in the observer's reports folder, and each parsed as the report of the runner its name gives. */
export function readReports(dir: string, cwd: string): { files: string[]; reports: ObservedReport[] } {
  const files = reportFiles(dir);
  const reports = files.map((file) => {
    const runner = /^(.+)-\d+-\d+\.report$/.exec(file)?.[1] ?? '?';
    return { runner, file, report: runnerNamed(runner)?.parse(readFileSync(join(reportsDir(dir), file), 'utf8'), cwd) };
  });
  return { files, reports };
}

/** A report's tests as sorted `outcome id` lines. */
export const ids = (r: RunnerReport | undefined): string[] => (r?.tests ?? []).map((t) => `${t.outcome} ${t.id}`).sort();

/** Output with run times taken out (they differ between two runs). */
export const steady = (s: string): string => s.replace(/\d+(\.\d+)?\s?m?s\b/g, 'T');
