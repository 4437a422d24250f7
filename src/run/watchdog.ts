import { Worker } from 'node:worker_threads';
import type { Evidence } from '../agent/evidence/types.js';
import { redactDeep as redactValue } from '../secrets/index.js';
import { exitCodeFor } from '../agent/evidence/types.js';
import { processGroupsBuffer } from '../workspace/process-groups.js';
import type { RunTaskInput } from './run-task-types.js';
import { WATCHDOG_WORKER_SOURCE } from './watchdog-worker.js';

export interface WatchdogOptions {
  /** The time limit, from the start of the watchdog. */
  limitMs: number;
  /** Named in the stderr line and the reason, e.g. "timeout_min 30". */
  label: string;
  /** Past the limit, the main thread counts as stuck when it has been silent this long. Default 10 s. */
  staleMs?: number;
  /** Past the limit, a main thread that still answers gets this long to end the run itself. Default 30 min. */
  graceMs?: number;
  /** The run folder: evidence.json is written there when the main thread wrote none. */
  runDir?: string;
  /** The evidence written then (verdict, reason and endedAt are the watchdog's). */
  evidence?: Evidence;
  /** Default 4 (aborted). */
  exitCode?: number;
}

/** What the worker gets (watchdog-worker.ts reads these names). */
interface WatchdogData {
  t0: number;
  limitMs: number;
  staleMs: number;
  graceMs: number;
  tickMs: number;
  label: string;
  exitCode: number;
  heartbeat: SharedArrayBuffer;
  groups: SharedArrayBuffer;
  runDir?: string;
  evidence?: Evidence;
}

export interface Watchdog {
  /** Ends the watchdog (the run ended on its own). */
  stop(): void;
}

/**
 * Enforces a time limit from outside the main thread: a worker thread with its own event loop, reading a
 * heartbeat the main thread writes every half second. When the limit has passed and the main thread is
 * stuck (a synchronous open of a named pipe, a busy loop: its own timers can never fire), or the grace
 * after the limit is spent, the worker kills every process group the harness started, says so on stderr,
 * writes the evidence stub when no evidence.json exists, and ends the process with exit code 4.
 * Neither the worker nor the heartbeat keeps the process alive.
 */
export function startWatchdog(opts: WatchdogOptions): Watchdog {
  const t0 = Date.now();
  const heartbeat = new SharedArrayBuffer(4);
  const beat = new Int32Array(heartbeat);
  const staleMs = opts.staleMs ?? 10_000;
  const data: WatchdogData = {
    t0,
    limitMs: opts.limitMs,
    staleMs,
    graceMs: opts.graceMs ?? 30 * 60_000,
    tickMs: Math.max(50, Math.min(1000, Math.floor(staleMs / 4))),
    label: opts.label,
    exitCode: opts.exitCode ?? exitCodeFor('aborted'),
    heartbeat,
    groups: processGroupsBuffer(),
    ...(opts.runDir ? { runDir: opts.runDir } : {}),
    ...(opts.evidence ? { evidence: opts.evidence } : {}),
  };
  const pulse = setInterval(() => Atomics.store(beat, 0, Date.now() - t0), Math.min(500, Math.floor(staleMs / 4) || 1));
  pulse.unref();
  const worker = new Worker(WATCHDOG_WORKER_SOURCE, { eval: true, workerData: data });
  worker.unref();
  worker.on('error', () => undefined);
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(pulse);
      void worker.terminate().catch(() => undefined);
    },
  };
}

/**
 * The watchdog of one run (run-task): the limit is config.timeout_min; the grace after it covers what
 * the harness still does when the agent stops on time (the final test runs, the second look, the commit),
 * so only a run that is stuck is ended early. The stub evidence is built (and redacted) here, on the main thread.
 */
export function startRunWatchdog(input: RunTaskInput, startedAt: string, secrets: readonly string[]): Watchdog {
  const c = input.config;
  const t = input.task;
  const graceMin = c.setup.timeout_min + 3 * c.test.timeout_min + 10;
  const stub: Evidence = {
    version: 1,
    runId: input.runId,
    startedAt,
    endedAt: startedAt,
    verdict: 'aborted',
    reason: '',
    task: { kind: t.kind, title: t.title, ...(t.issue !== undefined ? { issue: t.issue } : {}) },
    repo: { ...(input.repoFullName ? { fullName: input.repoFullName } : { path: input.repoDir }), baseSha: '', branch: input.branch },
    gates: [],
    testRuns: [],
    filesChanged: [],
    toolCalls: {},
    denied: [],
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, turns: 0, compactions: 0 },
    model: input.modelId,
  };
  return startWatchdog({
    limitMs: c.timeout_min * 60_000,
    label: `timeout_min ${c.timeout_min}`,
    graceMs: graceMin * 60_000,
    runDir: input.runDir,
    evidence: redactValue(stub, secrets) as Evidence,
  });
}
