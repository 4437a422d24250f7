/**
 * A heartbeat for long steps: while a step lasts and nothing else was printed for `intervalMs`, one line
 * naming the step and how long it has taken ("… still: baseline tests (node --test) · 35s"). Plain lines,
 * no spinner or carriage return, so CI logs read the same as a terminal. The step follows the run's
 * events (setup and baseline, the model, tools, the final test run and gates) or is named by the host
 * (e.g. the CI wait). PROOFPR_HEARTBEAT_MS sets the interval (default 10 s, so a line comes at least
 * every 15 s whatever the tick).
 */
import type { RunEvent } from '../../agent/events.js';
import { elapsed, stepOf } from '../../agent/run-step.js';

export { elapsed, stepOf } from '../../agent/run-step.js';

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
