import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import type { RepoConfig } from '../../config/repo-config.js';
import type { ExecPort } from '../../workspace/exec-port.js';
import type { TestRun } from '../events.js';
import { loadBashParser } from '../permissions/bash-parser.js';
import { parseReport } from './parse-report.js';
import { removeReport } from './report-file.js';
import { parseRunnerReport } from './runners/parse-runner-report.js';
import { planReport } from './runners/plan-report.js';
import type { RunnerReport } from './runners/types.js';

export interface HarnessRunOptions {
  /** Where the tests run: a clean checkout of `commit` (final run, baseline) or red→green's base tree. */
  cwd: string;
  command: string;
  config: Pick<RepoConfig, 'test'>;
  exec: ExecPort;
  /** A folder writable inside the sandbox (the exec's TMPDIR): the fresh report folder is made in it. */
  scratchDir: string;
  kind: NonNullable<TestRun['kind']>;
  treeHash: string;
  commit?: string;
  /** Full output goes here; the runner's report is copied next to it (`<outputFile>.report`). */
  outputFile?: string;
  signal?: AbortSignal;
}

export interface HarnessRunResult {
  run: TestRun;
  output: string;
  report?: RunnerReport;
}

/**
 * A test run the harness starts itself: it asks the runner for its machine-readable report at a
 * fresh random path in a folder it has just created (no file in the commit, nothing the agent left
 * can be that report), and the counts and per-test ids come from that report only; what the tests
 * print is never read for counts. A command proofpr cannot ask (not one runner call) counts through
 * `test.report` when configured, else its counts are unknown and `note` says why. Never throws for a
 * failing command: exit code null and unknown counts.
 */
export async function harnessTestRun(opts: HarnessRunOptions): Promise<HarnessRunResult> {
  const dir = await mkdtemp(join(opts.scratchDir, 'proofpr-report-'));
  const reportFile = join(dir, `${randomBytes(12).toString('hex')}.report`);
  try {
    const parser = await loadBashParser();
    const plan = planReport(parser, opts.command, opts.cwd, reportFile, dir);
    const configured = opts.config.test.report;
    if (!plan.ok && configured !== undefined) await removeReport(opts.cwd, configured);
    if (plan.ok) for (const f of plan.files) await writeFile(f.path, f.content);
    const startedAtMs = Date.now();
    const exec = await runIt(opts, plan.ok ? plan.command : opts.command, plan.ok ? plan.env : {});
    const endedAtMs = Date.now();
    let report: RunnerReport | undefined;
    let note: string | undefined;
    let source: TestRun['source'] = 'none';
    let reportText: string | undefined;
    let reportPath: string | undefined;
    let runner: string | undefined;
    if (plan.ok) {
      runner = plan.runner.name;
      reportText = await readFile(reportFile, 'utf8').catch(() => undefined);
      report =
        reportText === undefined
          ? undefined
          : parseRunnerReport(plan.runner, reportText, [opts.cwd, await realpath(opts.cwd).catch(() => opts.cwd)]);
      if (report) source = plan.runner.source;
      else
        note =
          reportText === undefined
            ? `${plan.runner.name} wrote no report (asked with \`${plan.command}\`)`
            : `${plan.runner.name}'s report could not be read`;
    } else if (configured !== undefined) {
      const path = isAbsolute(configured) ? configured : join(opts.cwd, configured);
      const r = parseReport(path, startedAtMs, endedAtMs);
      if (r) {
        report = { counts: r.counts, tests: [] };
        source = r.source;
        reportPath = configured;
      } else note = `test.report (${configured}) was not written by this run`;
      note = note ?? `counts from test.report: ${plan.reason}`;
    } else note = plan.reason;
    let output = exec.output;
    let outputPath: string | undefined;
    if (opts.outputFile) {
      await mkdir(dirname(opts.outputFile), { recursive: true });
      await writeFile(opts.outputFile, output);
      outputPath = opts.outputFile;
      if (reportText !== undefined) {
        reportPath = `${opts.outputFile}.report`;
        await copyFile(reportFile, reportPath);
      }
    }
    if (plan.ok && plan.runner.request(reportFile, dir).stream && reportText !== undefined)
      output += `\n[proofpr: ${plan.runner.name}'s report stream went to the report file]\n${reportText.slice(-20_000)}`;
    const run: TestRun = {
      command: opts.command,
      exitCode: exec.exitCode,
      startedAt: new Date(startedAtMs).toISOString(),
      endedAt: new Date(endedAtMs).toISOString(),
      treeHash: opts.treeHash,
      counts: report?.counts ?? null,
      source,
      ...(reportPath ? { reportPath } : {}),
      ...(runner ? { runner } : {}),
      by: 'harness',
      ...(outputPath ? { outputPath } : {}),
      ...(report && report.tests.length ? { tests: report.tests } : {}),
      ...(opts.commit ? { commit: opts.commit } : {}),
      kind: opts.kind,
      ...(note ? { note } : {}),
    };
    return { run, output, ...(report ? { report } : {}) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function runIt(
  opts: HarnessRunOptions,
  command: string,
  env: Record<string, string>,
): Promise<{ exitCode: number | null; output: string }> {
  const min = opts.config.test.timeout_min;
  try {
    const r = await opts.exec({
      command,
      cwd: opts.cwd,
      timeoutMs: min * 60_000,
      ...(Object.keys(env).length ? { extraEnv: env } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    return {
      exitCode: r.exitCode,
      output: r.timedOut ? `${r.output}\n[proofpr: the test command timed out after ${min} min (test.timeout_min)]` : r.output,
    };
  } catch (e) {
    return { exitCode: null, output: `[proofpr: could not run the test command: ${(e as Error).message}]` };
  }
}
