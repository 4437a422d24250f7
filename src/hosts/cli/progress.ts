import type { RunEvent } from '../../agent/events.js';
import { heartbeatMs, startHeartbeat, type Heartbeat } from '../shared/heartbeat.js';

/** One human-readable line per turn on stderr: turn, tool calls, tokens, $; plus denials, gates and the end. */
export function createProgressPrinter(write: (line: string) => void = (l) => process.stderr.write(`${l}\n`)) {
  let tokens = 0;
  let cost = 0;
  return (ev: RunEvent): void => {
    switch (ev.type) {
      case 'run_start':
        write(
          ev.sandbox === 'bwrap'
            ? 'sandbox: bwrap (no network, read-only outside the worktree)'
            : `sandbox: NONE: ${ev.sandboxReason ?? 'not available'}`,
        );
        if (ev.test) write(`tests: ${ev.test.command} (${ev.test.source}: ${ev.test.why})`);
        if (ev.setup)
          write(`setup: ${ev.setup.command ? `${ev.setup.command} (${ev.setup.source ?? 'configured'}: ${ev.setup.why})` : ev.setup.why}`);
        break;
      case 'assistant': {
        tokens += ev.usage.inputTokens + ev.usage.outputTokens + ev.usage.cacheReadTokens + ev.usage.cacheWriteTokens;
        cost += ev.costUsd;
        const tools = ev.content.flatMap((b) => (b.type === 'tool_use' ? [b.name] : []));
        write(
          `turn ${ev.turn} · ${tools.length ? tools.join(', ') : 'no tool calls'} · ${(tokens / 1000).toFixed(1)}k tokens · $${cost.toFixed(3)}`,
        );
        break;
      }
      case 'permission':
        if (ev.behavior === 'deny') write(`  denied ${ev.tool}: ${ev.input.slice(0, 100)} (${ev.rule})`);
        break;
      case 'test_run': {
        const c = ev.run.counts;
        write(
          `  test run (${ev.run.by}): ${ev.run.command} → exit ${ev.run.exitCode}, ${c ? `${c.passed} passed, ${c.failed} failed` : 'counts unknown'}${ev.run.flaky?.length ? `, flaky: ${ev.run.flaky.map((f) => f.test).join(', ')}` : ''}`,
        );
        break;
      }
      case 'gate':
        write(
          `  ${ev.final ? 'final gate' : 'gate'} ${ev.advisory ? 'advisory (found, not blocking)' : ev.passed ? 'passed' : 'FAILED'}: ${ev.name}${ev.passed && !ev.advisory ? '' : ` (${ev.detail})`}`,
        );
        break;
      case 'untested_hunks':
        write(`  untested hunks: ${ev.hunks.length} of ${ev.checked} hunk(s) no test noticed reverted (${ev.runs} extra test run(s))`);
        break;
      case 'retry':
        write(`  retrying turn ${ev.turn}: ${ev.reason}`);
        break;
      case 'compaction':
        write(`  compaction (${ev.kind}): ${ev.beforeTokens} → ${ev.afterTokens} tokens${ev.ok ? '' : ' FAILED'}`);
        break;
      case 'error':
        // A failed setup is the run's end reason: printed once, by run_end.
        if (ev.kind !== 'setup') write(`  error (${ev.kind}): ${ev.message}`);
        break;
      case 'run_end':
        write(`${ev.verdict.toUpperCase()}: ${ev.reason}`);
        break;
      default:
        break;
    }
  };
}

export interface RunProgress {
  /** The run's events: one line per turn, gate and test run, and the step the heartbeat names. */
  onEvent: (ev: RunEvent) => void;
  heartbeat: Heartbeat;
  stop(): void;
}

/**
 * The progress printer with a heartbeat: while a long step lasts (worktree, setup, baseline, the model,
 * a tool, the final test run), a line at least every PROOFPR_HEARTBEAT_MS (default 10 s) names it.
 */
export function createRunProgress(write: (line: string) => void, env: NodeJS.ProcessEnv = process.env): RunProgress {
  const heartbeat = startHeartbeat(write, { intervalMs: heartbeatMs(env) });
  const printer = createProgressPrinter((l) => heartbeat.print(l));
  heartbeat.step('preparing the worktree');
  return {
    onEvent: (ev) => {
      heartbeat.event(ev);
      printer(ev);
    },
    heartbeat,
    stop: () => heartbeat.stop(),
  };
}
