/**
 * The step a run is in, named from its events ("baseline tests (npm test)", "waiting for the model (turn
 * 3)", "running Bash: npm test"), and how long it has lasted: the one naming behind every heartbeat (the
 * CLI and Action log lines, the App's status comment).
 */
import type { RunEvent } from './events.js';

/** "1m05s", "42s". */
export function elapsed(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

const short = (s: string, n = 80): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function toolStep(name: string, input: unknown): string {
  const cmd = (input as { command?: unknown } | undefined)?.command;
  return name === 'Bash' && typeof cmd === 'string' ? `running Bash: ${short(cmd)}` : `running ${name}`;
}

/** The step a run event starts, or undefined when it starts none. */
export function stepOf(ev: RunEvent, ctx: { testCommand?: string }): string | undefined {
  switch (ev.type) {
    case 'run_start': {
      const test = ev.test ? `baseline tests (${short(ev.test.command)})` : 'baseline tests';
      return ev.setup?.command ? `setup (${short(ev.setup.command)}), then ${test}` : test;
    }
    case 'request':
      return `waiting for the model (turn ${ev.turn})`;
    case 'assistant': {
      const calls = ev.content.flatMap((b) => (b.type === 'tool_use' ? [toolStep(b.name, b.input)] : []));
      return calls.length > 0 ? calls.join(', ') : `final test run and gates${ctx.testCommand ? ` (${short(ctx.testCommand)})` : ''}`;
    }
    case 'tool_call':
      return toolStep(ev.name, ev.input);
    case 'tool_result':
      return 'waiting for the model';
    case 'test_run':
      if (ev.run.by !== 'harness') return undefined;
      return ev.run.kind === 'baseline' ? 'preparing the agent' : 'the remaining gates (differential and kept-test runs)';
    case 'second_look':
      return 'publishing';
    case 'run_end':
      return 'writing the run folder';
    default:
      return undefined;
  }
}
