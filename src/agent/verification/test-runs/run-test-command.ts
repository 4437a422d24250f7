import type { RunSettings } from '../../settings.js';
import type { ExecPort } from '../../../workspace/exec-port.js';
import { writeRedactedFile } from '../../../secrets/redacting-writer.js';
import type { TestRun } from '../../events.js';
import { readCounts } from '../test-results/read-counts.js';
import { streamsApart } from './harness-run.js';

/**
 * The harness runs `test.command` itself (final run, red→green baseline): through the exec port (same
 * sandbox and scrubbed env as the model's Bash), with test.timeout_min. `treeHash` is taken by the
 * caller before. The full output goes to `outputFile` when given. Never throws: a failure to start is
 * a run with exit code null and unknown counts.
 */
export async function runTestCommand(opts: {
  cwd: string;
  command: string;
  config: Pick<RunSettings, 'test'>;
  exec: ExecPort;
  treeHash: string;
  outputFile?: string;
  signal?: AbortSignal;
}): Promise<{ run: TestRun; output: string }> {
  const startedAtMs = Date.now();
  const startedAt = new Date(startedAtMs).toISOString();
  let exitCode: number | null = null;
  let output: string;
  // Counted from stdout and stderr apart (streamsApart); the output file keeps them interleaved for people.
  let counted: string;
  try {
    const r = await opts.exec({
      command: opts.command,
      cwd: opts.cwd,
      timeoutMs: opts.config.test.timeout_min * 60_000,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    exitCode = r.exitCode;
    output = r.output;
    if (r.timedOut) output += `\n[proofpr: the test command timed out after ${opts.config.test.timeout_min} min (test.timeout_min)]`;
    counted = streamsApart({ ...r, output });
  } catch (e) {
    output = `[proofpr: could not run the test command: ${(e as Error).message}]`;
    counted = output;
  }
  const endedAtMs = Date.now();
  const endedAt = new Date(endedAtMs).toISOString();
  const c = readCounts({ root: opts.cwd, report: opts.config.test.report, startedAtMs, endedAtMs, output: counted });
  let outputPath: string | undefined;
  if (opts.outputFile) {
    await writeRedactedFile(opts.outputFile, output);
    outputPath = opts.outputFile;
  }
  const run: TestRun = {
    command: opts.command,
    exitCode,
    startedAt,
    endedAt,
    treeHash: opts.treeHash,
    counts: c.counts,
    source: c.source,
    ...(c.reportPath ? { reportPath: c.reportPath } : {}),
    ...(c.runner ? { runner: c.runner } : {}),
    by: 'harness',
    ...(outputPath ? { outputPath } : {}),
  };
  return { run, output };
}
