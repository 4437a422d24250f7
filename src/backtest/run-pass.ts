/**
 * One pass: the real CLI (`proofpr run --repo CLONE --prompt … --json`) as a child process, its model
 * behind the environment given (the replay server, or the configured model with --model), and what its
 * evidence.json says: verdict, reason, the failed gates, the final run's counts, wall time and test time.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

interface TestRunLike {
  startedAt: string;
  endedAt: string;
  counts?: { passed: number; failed: number; skipped: number; total: number } | null;
  tests?: Array<{ id: string; outcome: string }>;
  kind?: string;
}

interface EvidenceLike {
  verdict: string;
  reason: string;
  gates?: Array<{ name: string; passed: boolean }>;
  testRuns: TestRunLike[];
  baseline?: TestRunLike;
  sandbox?: string;
  test?: { command: string; source: string };
  usage: { turns: number; costUsd?: number };
  repo?: { headSha?: string; baseSha?: string };
}

export interface PassResult {
  verdict: string;
  exitCode: number;
  reason: string;
  /** Names of the gates that failed. */
  failedGates: string[];
  wallMs: number;
  /** Time of every test-command run (baseline, the agent's, the final run, the differential runs). */
  testMs: number;
  /** The differential run's time (the commit's source under the base's own tests), 0 when there was none. */
  keptMs: number;
  /** The new tests' red run's time (the agent's tests on the base source, kind `red-green`), 0 when there was none. */
  redMs: number;
  testRuns: number;
  /** The final run's counts, when it had any. */
  total?: number;
  passed?: number;
  failed?: number;
  /** The final run's failing tests (at most 5): a unit that did not build is `<unit> > [build failed]`. */
  failing?: string[];
  sandbox?: string;
  testCommand?: string;
  testSource?: string;
  turns: number;
  costUsd: number;
  /** The commit the run left in the clone (verified, or a WIP commit), when it made one. */
  headSha?: string;
}

export interface PassOptions {
  /** The CLI's launcher (bin/proofpr.js of the build to run). */
  bin: string;
  /** The clone to run in (a work tree; the run makes its own worktree of it). */
  repo: string;
  prompt: string;
  /** The run folder (`--out`). */
  runDir: string;
  /** The child's whole environment (nothing else is inherited). */
  env: NodeJS.ProcessEnv;
  /** A config file for --config. */
  config?: string;
  /** More arguments for `proofpr run` (`--model ID`). */
  extraArgs?: readonly string[];
  /** Each stderr chunk of the child (progress lines). */
  onStderr?: (text: string) => void;
}

const ms = (a: string, b: string): number => Date.parse(b) - Date.parse(a);

async function spawnCli(o: PassOptions): Promise<{ exitCode: number; stderr: string; wallMs: number }> {
  const args = ['run', '--repo', o.repo, '--prompt', o.prompt, '--out', o.runDir, '--json', ...(o.extraArgs ?? [])];
  if (o.config) args.push('--config', o.config);
  const t = performance.now();
  const child = spawn(process.execPath, [o.bin, ...args], { env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    o.onStderr?.(d.toString());
  });
  child.stdout.resume();
  const exitCode = await new Promise<number>((res) => child.on('close', (code) => res(code ?? 1)));
  return { exitCode, stderr, wallMs: performance.now() - t };
}

/** The pass's figures from its evidence (the baseline counted once when it is also one of the test runs). */
export function passFromEvidence(ev: EvidenceLike, exitCode: number, wallMs: number): PassResult {
  const baseline = ev.baseline;
  const runs = [...(baseline && !ev.testRuns.some((r) => r.startedAt === baseline.startedAt) ? [baseline] : []), ...ev.testRuns];
  // The harness's final run of the commit is the evidence; a run without kinds (an older build) ends with it.
  const last = ev.testRuns.find((r) => r.kind === 'final') ?? ev.testRuns.at(-1);
  return {
    verdict: ev.verdict,
    exitCode,
    reason: ev.reason,
    failedGates: (ev.gates ?? []).filter((g) => !g.passed).map((g) => g.name),
    wallMs,
    testMs: runs.reduce((s, r) => s + ms(r.startedAt, r.endedAt), 0),
    keptMs: ev.testRuns.filter((r) => r.kind === 'kept').reduce((s, r) => s + ms(r.startedAt, r.endedAt), 0),
    redMs: ev.testRuns.filter((r) => r.kind === 'red-green').reduce((s, r) => s + ms(r.startedAt, r.endedAt), 0),
    testRuns: runs.length,
    ...(last?.counts ? { total: last.counts.total, passed: last.counts.passed, failed: last.counts.failed } : {}),
    ...(last?.tests?.some((t) => t.outcome === 'failed')
      ? {
          failing: last.tests
            .filter((t) => t.outcome === 'failed')
            .slice(0, 5)
            .map((t) => t.id),
        }
      : {}),
    ...(ev.sandbox ? { sandbox: ev.sandbox } : {}),
    ...(ev.test ? { testCommand: ev.test.command, testSource: ev.test.source } : {}),
    turns: ev.usage.turns,
    costUsd: ev.usage.costUsd ?? 0,
    ...(ev.repo?.headSha && ev.repo.headSha !== ev.repo.baseSha ? { headSha: ev.repo.headSha } : {}),
  };
}

/** Runs the pass; throws (with the child's stderr) only when the run left no evidence.json. */
export async function runPass(o: PassOptions): Promise<PassResult> {
  const { exitCode, stderr, wallMs } = await spawnCli(o);
  const evPath = join(o.runDir, 'evidence.json');
  if (!existsSync(evPath)) throw new Error(`proofpr run left no evidence.json (exit ${exitCode}):\n${stderr.slice(-4000)}`);
  const ev = JSON.parse(readFileSync(evPath, 'utf8')) as EvidenceLike;
  return passFromEvidence(ev, exitCode, wallMs);
}
