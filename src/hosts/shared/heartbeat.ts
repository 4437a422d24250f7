/**
 * A heartbeat for long steps: while a step lasts and nothing else was printed for `intervalMs`, one line
 * naming the step and how long it has taken ("… still: baseline tests (node --test) · 35s"). Plain lines,
 * no spinner or carriage return, so CI logs read the same as a terminal. The step follows the run's
 * events (setup and baseline, the model, tools, the final test run and gates) or is named by the host
 * (e.g. the CI wait). PROOFPR_HEARTBEAT_MS sets the interval (default 10 s, so a line comes at least
 * every 15 s whatever the tick).
 */
import type { RunEvent } from '../../agent/events.js';

export const DEFAULT_HEARTBEAT_MS = 10_000;

export interface Heartbeat {
  /** Name the step now in progress (its clock starts now). */
  step(label: string): void;
  /** Print a line through the heartbeat (it postpones the next beat). */
  print(line: string): void;
  /** Follow a run event: the step it starts, if any. */
  event(ev: RunEvent): void;
  /** No more beats (the step ended). */
  idle(): void;
  stop(): void;
}

export interface HeartbeatOptions {
  intervalMs?: number;
  now?: () => number;
  /** Prefix of each beat (default "… still"). */
  prefix?: string;
}

/** PROOFPR_HEARTBEAT_MS when it is a positive whole number, else the default. */
export function heartbeatMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.PROOFPR_HEARTBEAT_MS?.trim();
  return v && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : DEFAULT_HEARTBEAT_MS;
}

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

export function startHeartbeat(write: (line: string) => void, opts: HeartbeatOptions = {}): Heartbeat {
  const intervalMs = opts.intervalMs ?? heartbeatMs();
  const now = opts.now ?? Date.now;
  const prefix = opts.prefix ?? '… still';
  let label: string | undefined;
  let since = now();
  let last = now();
  let testCommand: string | undefined;
  const beat = (): void => {
    const t = now();
    if (label === undefined || t - last < intervalMs) return;
    write(`${prefix}: ${label} · ${elapsed(t - since)}`);
    last = t;
  };
  // A tick at a third of the interval: a beat is never more than 4/3 of the interval after the last line.
  const timer = setInterval(beat, Math.max(20, Math.floor(intervalMs / 3)));
  timer.unref();
  const hb: Heartbeat = {
    step(l) {
      if (l !== label) since = now();
      label = l;
    },
    print(line) {
      write(line);
      last = now();
    },
    event(ev) {
      if (ev.type === 'run_start' && ev.test) testCommand = ev.test.command;
      const next = stepOf(ev, testCommand ? { testCommand } : {});
      if (next !== undefined) hb.step(next);
    },
    idle() {
      label = undefined;
    },
    stop() {
      label = undefined;
      clearInterval(timer);
    },
  };
  return hb;
}
