import type { RunEvent } from '../../agent/events.js';

/** One human-readable line per turn on stderr: turn, tool calls, tokens, $; plus denials, gates and the end. */
export function createProgressPrinter(write: (line: string) => void = (l) => process.stderr.write(`${l}\n`)) {
  let tokens = 0;
  let cost = 0;
  let pendingTurn: { turn: number; tools: string[] } | undefined;
  const flush = () => {
    if (!pendingTurn) return;
    const tools = pendingTurn.tools.length ? pendingTurn.tools.join(', ') : 'no tool calls';
    write(`turn ${pendingTurn.turn} · ${tools} · ${(tokens / 1000).toFixed(1)}k tokens · $${cost.toFixed(3)}`);
    pendingTurn = undefined;
  };
  return (ev: RunEvent): void => {
    switch (ev.type) {
      case 'assistant':
        flush();
        tokens += ev.usage.inputTokens + ev.usage.outputTokens + ev.usage.cacheReadTokens + ev.usage.cacheWriteTokens;
        cost += ev.costUsd;
        pendingTurn = { turn: ev.turn, tools: ev.content.flatMap((b) => (b.type === 'tool_use' ? [b.name] : [])) };
        break;
      case 'request':
        flush();
        break;
      case 'permission':
        if (ev.behavior === 'deny') write(`  denied ${ev.tool}: ${ev.input.slice(0, 100)} (${ev.rule})`);
        break;
      case 'test_run': {
        const c = ev.run.counts;
        write(`  test run (${ev.run.by}): ${ev.run.command} → exit ${ev.run.exitCode}, ${c ? `${c.passed} passed, ${c.failed} failed` : 'counts unknown'}`);
        break;
      }
      case 'gate':
        write(`  gate ${ev.passed ? 'passed' : 'FAILED'}: ${ev.name}${ev.passed ? '' : ` (${ev.detail})`}`);
        break;
      case 'retry':
        write(`  retrying turn ${ev.turn}: ${ev.reason}`);
        break;
      case 'compaction':
        write(`  compaction (${ev.kind}): ${ev.beforeTokens} → ${ev.afterTokens} tokens${ev.ok ? '' : ' FAILED'}`);
        break;
      case 'run_end':
        flush();
        write(`${ev.verdict.toUpperCase()}: ${ev.reason}`);
        break;
      default:
        break;
    }
  };
}
