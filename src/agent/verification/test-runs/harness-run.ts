import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { RunSettings } from '../../settings.js';
import type { ExecPort } from '../../../workspace/exec-port.js';
import { maskCopy, readPlaceholders } from '../../../workspace/world.js';
import { maskedContent } from '../../../secrets/placeholder.js';
import { writeRedactedFile } from '../../../secrets/redacting-writer.js';
import type { TestRun } from '../../events.js';
import { collectObserved } from '../test-results/observe/collect-observed.js';
import { countCalls, type CountedCalls } from '../test-results/observe/count-calls.js';
import { observedEnv } from '../test-results/observe/observed-env.js';
import { reportsDir } from '../test-results/observe/types.js';
import type { TestSelection } from '../test-results/observe/selection.js';
import { parseReport } from '../test-results/parse-report.js';
import { removeReport } from '../test-results/report-file.js';
import type { RunnerReport } from '../test-results/runners/types.js';

export interface HarnessRunOptions {
  /** Where the tests run: a clean checkout of `commit` (final run, baseline) or red→green's base tree. */
  cwd: string;
  command: string;
  config: Pick<RunSettings, 'test'>;
  exec: ExecPort;
  /** A folder writable inside the sandbox (the exec's TMPDIR): the fresh observe folder is made in it. */
  scratchDir: string;
  kind: NonNullable<TestRun['kind']>;
  treeHash: string;
  commit?: string;
  /** Full output goes here; the runners' reports are copied next to it (`<outputFile>.reports/`). */
  outputFile?: string;
  /** Narrow the run to these tests where the runner allows (selection.ts); the command runs whole otherwise. */
  select?: TestSelection;
  signal?: AbortSignal;
}

export interface HarnessRunResult {
  run: TestRun;
  output: string;
  report?: RunnerReport;
}

/**
 * A test run the harness starts itself. The maintainer's command runs exactly as written (their
 * script, wrappers, pre/post scripts, workspace flags: same argv, same cwd); observers added to its
 * environment make every runner call inside it write its machine-readable report into a fresh folder
 * only the harness created (nothing in the commit, nothing the agent left can be such a report). The
 * counts are the sum over those calls, each with its source in `calls`; a runner that wrote no report
 * counts from its own summary lines. `test.report` is read when no runner call could be counted.
 * Never throws for a failing command: exit code null and unknown counts, with `note` saying why.
 */
export async function harnessTestRun(opts: HarnessRunOptions): Promise<HarnessRunResult> {
  const dir = await mkdtemp(join(opts.scratchDir, 'proofpr-observe-'));
  try {
    const observe = await observedEnv(dir, opts.select ? { ...opts.select, root: opts.cwd } : undefined);
    const configured = opts.config.test.report;
    if (configured !== undefined) await removeReport(opts.cwd, configured);
    // A clean checkout shows what the agent's sandbox shows: its secret-looking files masked (world.ts).
    const masked = maskCopy(opts.cwd);
    const startedAtMs = Date.now();
    const exec = await runIt(opts, observe.extend);
    const endedAtMs = Date.now();
    const maskedReads = readMasked(opts.cwd, masked, exec.output);
    const roots = [opts.cwd, await realpath(opts.cwd).catch(() => opts.cwd)];
    // Counted from stdout and stderr apart: two pipes interleave at random, which can move tests between units.
    const apart = streamsApart(exec);
    const observed = await collectObserved(dir, apart, roots, observe.streamRunners);
    let counted: CountedCalls = countCalls(observed.calls, observed.seen, apart);
    let reportPath: string | undefined;
    if (counted.counts === null && configured !== undefined) {
      const fromConfig = readConfigured(opts.cwd, configured, startedAtMs, endedAtMs);
      if (fromConfig) {
        counted = fromConfig;
        reportPath = configured;
      }
    }
    const note = joinNotes(maskedReadNote(maskedReads), noteFor(opts.command, counted, observed.unreadable, configured));
    let outputPath: string | undefined;
    if (opts.outputFile) {
      await writeRedactedFile(opts.outputFile, exec.output);
      outputPath = opts.outputFile;
      const kept = await keepReports(dir, `${opts.outputFile}.reports`, counted);
      if (kept && !reportPath) reportPath = kept;
    }
    const [first] = counted.calls;
    const run: TestRun = {
      command: opts.command,
      exitCode: exec.exitCode,
      startedAt: new Date(startedAtMs).toISOString(),
      endedAt: new Date(endedAtMs).toISOString(),
      treeHash: opts.treeHash,
      counts: counted.counts,
      source: counted.source,
      ...(reportPath ? { reportPath } : {}),
      ...(first ? { runner: [...new Set(counted.calls.map((c) => c.runner))].join('+') } : {}),
      by: 'harness',
      ...(outputPath ? { outputPath } : {}),
      ...(counted.tests.length ? { tests: counted.tests } : {}),
      ...(counted.calls.length
        ? { calls: counted.calls.map(({ runner, source, counts, from }) => ({ runner, source, counts, from })) }
        : {}),
      ...(opts.commit ? { commit: opts.commit } : {}),
      kind: opts.kind,
      ...(note ? { note } : {}),
      ...(maskedReads.length ? { maskedReads } : {}),
      ...(counted.checks?.length ? { countCheck: counted.checks } : {}),
    };
    const report = counted.counts ? { counts: counted.counts, tests: counted.tests } : undefined;
    return { run, output: exec.output, ...(report ? { report } : {}) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function readConfigured(cwd: string, configured: string, startedAtMs: number, endedAtMs: number): CountedCalls | undefined {
  const r = parseReport(isAbsolute(configured) ? configured : join(cwd, configured), startedAtMs, endedAtMs);
  if (!r) return undefined;
  return {
    calls: [{ runner: 'test.report', source: r.source, counts: r.counts, tests: [], from: configured }],
    counts: r.counts,
    tests: [],
    source: r.source,
  };
}

/**
 * The masked files the tests read: a placeholder whose atime moved (maskCopy set it to the epoch), or
 * whose text (maskedContent: it names the file) appears in the output, where atimes are not kept.
 */
function readMasked(cwd: string, masked: readonly string[], output: string): string[] {
  const byAtime = readPlaceholders(masked.map((rel) => ({ rel, abs: join(cwd, rel) })));
  const byOutput = masked.filter((rel) => output.includes(maskedContent(rel).trim()));
  return [...new Set([...byAtime, ...byOutput])].sort();
}

/** "a test read masked file X: opt it in with permissions.readable": a wall never fails the tests silently. */
export function maskedReadNote(reads: readonly string[]): string | undefined {
  if (reads.length === 0) return undefined;
  const shown = reads.slice(0, 5).join(', ') + (reads.length > 5 ? ` and ${reads.length - 5} more` : '');
  return `a test read masked file${reads.length > 1 ? 's' : ''} ${shown} (content matching a secret rule; the tests saw a placeholder): opt ${reads.length > 1 ? 'them' : 'it'} in with permissions.readable in .github/proofpr.yml`;
}

function joinNotes(...notes: Array<string | undefined>): string | undefined {
  const parts = notes.filter((n): n is string => n !== undefined);
  return parts.length ? parts.join('; ') : undefined;
}

function noteFor(command: string, counted: CountedCalls, unreadable: string[], configured: string | undefined): string | undefined {
  const parts: string[] = [];
  if (counted.note) parts.push(counted.note);
  if (unreadable.length) parts.push(`reports that could not be read: ${unreadable.join(', ')}`);
  if (counted.counts === null)
    parts.push(
      `no test runner's output could be read from \`${command}\`` +
        (configured !== undefined ? ` and test.report (${configured}) was not written by this run` : '') +
        `: proofpr reads jest, vitest, mocha, node --test, ava, tap, uvu, jasmine, playwright, pytest, unittest, go test and cargo test wherever they run inside the command; for another runner, make it write a JUnit XML or Jest JSON file and name it in test.report`,
    );
  return parts.length ? parts.join('; ') : undefined;
}

/** The reports behind the counts, kept (redacted) next to the run's output; the path of the folder when any was kept. */
async function keepReports(dir: string, into: string, counted: CountedCalls): Promise<string | undefined> {
  const files = counted.calls.map((c) => c.from).filter((f) => f.endsWith('.report'));
  if (!files.length) return undefined;
  let kept = 0;
  for (const f of files) {
    const text = await readFile(join(reportsDir(dir), f), 'utf8').catch(() => undefined);
    if (text !== undefined) await writeRedactedFile(join(into, f), text).then(() => kept++);
  }
  return kept ? into : undefined;
}

interface RanCommand {
  exitCode: number | null;
  /** stdout and stderr interleaved as they arrived: the output file people read. */
  output: string;
  stdout: string;
  stderr: string;
}

/**
 * The text the counters read: stderr whole, then stdout whole, never interleaved. Each stream keeps its
 * own order, so a runner's block (cargo's test binaries print theirs on stdout) is never cut by a line
 * of the other stream (cargo's `Running` lines on stderr); cargo's target lines then all come before
 * the blocks, in the same order. A command that sends both to one pipe (`2>&1`) keeps its own order in stdout.
 * An exec that keeps no streams apart (empty both) gives the interleaved output.
 */
export function streamsApart(r: RanCommand): string {
  if (r.stdout === '' && r.stderr === '') return r.output;
  return r.stderr === '' ? r.stdout : `${r.stderr}${r.stderr.endsWith('\n') ? '' : '\n'}${r.stdout}`;
}

async function runIt(
  opts: HarnessRunOptions,
  extendEnv: (env: Readonly<Record<string, string | undefined>>) => Record<string, string>,
): Promise<RanCommand> {
  const min = opts.config.test.timeout_min;
  try {
    const r = await opts.exec({
      command: opts.command,
      cwd: opts.cwd,
      timeoutMs: min * 60_000,
      extendEnv,
      // A home of its own: nothing the agent wrote into its home (.npmrc, .gitconfig) reaches the harness's run.
      home: 'fresh',
      // The base commit's run warms the Go build cache of the harness's later runs (each gets a copy).
      ...(opts.kind === 'baseline' ? { seedBuildCache: true } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const timedOut = `\n[proofpr: the test command timed out after ${min} min (test.timeout_min)]`;
    return {
      exitCode: r.exitCode,
      output: r.timedOut ? `${r.output}${timedOut}` : r.output,
      stdout: r.stdout,
      stderr: r.timedOut ? `${r.stderr}${timedOut}` : r.stderr,
    };
  } catch (e) {
    const output = `[proofpr: could not run the test command: ${(e as Error).message}]`;
    return { exitCode: null, output, stdout: '', stderr: output };
  }
}
