import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CountSource, TestCase, TestCounts } from '../../../events.js';
import { runnerNamed } from '../runners/index.js';
import { parseRunnerReport } from '../runners/parse-runner-report.js';
import type { RunnerName } from '../runners/types.js';
import { stripAnsi } from '../parse-test-output.js';
import { reportsDir } from './types.js';

/** One runner call inside the test command, as the harness counted it. */
export interface ObservedCall {
  runner: RunnerName | string;
  /** Where its counts came from: the runner's own report (observed) or its summary lines in the output. */
  source: CountSource;
  counts: TestCounts;
  tests: TestCase[];
  /** The report file's name in the observe folder (`jest-123-1.report`), or `output` for a stream report. */
  from: string;
}

/** The largest report the harness reads (a runner's report of a huge suite stays far below it). */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;
const REPORT = /^([a-z][a-z-]*)-(\d+)-(\d+)\.report$/;
const SEEN = /^([a-z][a-z-]*)-(\d+)(?:-\d+)?\.seen$/;
/**
 * Runners an observer only sees start (a `.seen` marker) whose report is their own output: node-tap prints
 * TAP when its stdout is not a terminal (the harness's never is), nested subtests and all, and its tree is
 * read by the node-tap runner (one test per leaf `t.test`, ids from the subtest path; counted as tap's parser
 * counts, which its closing `# { total }` line is then held against).
 */
const OUTPUT_WHEN_SEEN: readonly RunnerName[] = ['node-tap'];

/**
 * Every report the observers wrote during one run (`reportsDir(dir)`), parsed by the runner that
 * wrote it, in the order the calls ended; runners whose report is the output stream (`streamRunners`,
 * and node-tap when seen) parse the output. `seen` holds the runners an observer saw start without writing a report (their
 * summary lines may be read instead); `unreadable` the report files no runner could parse.
 */
export async function collectObserved(
  dir: string,
  output: string,
  roots: readonly string[],
  streamRunners: readonly RunnerName[],
): Promise<{ calls: ObservedCall[]; seen: Set<string>; unreadable: string[] }> {
  const names = await readdir(reportsDir(dir)).catch(() => [] as string[]);
  const found: Array<{ name: string; runner: string; mtime: number; seq: number }> = [];
  const seen = new Set<string>();
  for (const name of names) {
    const s = SEEN.exec(name);
    if (s) seen.add(s[1] ?? '');
    const m = REPORT.exec(name);
    if (!m) continue;
    const st = await stat(join(reportsDir(dir), name)).catch(() => undefined);
    if (!st?.isFile() || st.size > MAX_REPORT_BYTES) continue;
    found.push({ name, runner: m[1] ?? '', mtime: st.mtimeMs, seq: Number(m[3]) });
  }
  found.sort((a, b) => a.mtime - b.mtime || a.seq - b.seq);
  const calls: ObservedCall[] = [];
  const unreadable: string[] = [];
  for (const f of found) {
    const runner = runnerNamed(f.runner);
    const text = runner ? await readFile(join(reportsDir(dir), f.name), 'utf8').catch(() => undefined) : undefined;
    const report = runner && text !== undefined ? parseRunnerReport(runner, text, roots) : undefined;
    if (!runner || !report) unreadable.push(f.name);
    else calls.push({ runner: runner.name, source: runner.source, counts: report.counts, tests: report.tests, from: f.name });
  }
  const fromOutput = [...streamRunners, ...OUTPUT_WHEN_SEEN.filter((n) => seen.has(n) && !streamRunners.includes(n))];
  for (const name of fromOutput) {
    const runner = runnerNamed(name);
    const text = OUTPUT_WHEN_SEEN.includes(name) ? stripAnsi(output) : output;
    const report = runner ? parseRunnerReport(runner, text, roots) : undefined;
    if (runner && report && report.counts.total > 0)
      calls.push({ runner: runner.name, source: runner.source, counts: report.counts, tests: report.tests, from: 'output' });
  }
  return { calls, seen, unreadable };
}
