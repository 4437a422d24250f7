/**
 * Keeps one status comment in step with a run: RunEvents fold into the state, and the comment is edited
 * at most every `intervalMs` (phase changes and the final state are written at once). While the run is
 * not finished, a heartbeat line names the step in progress and how long it has lasted ("⏳ Now:
 * `baseline tests (npm test)` · 1m05s"); when nothing else changed for `heartbeatMs` (default 30 s) the
 * comment is rewritten for it, so a long step never looks like a hung run.
 */
import type { RunEvent } from '../agent/events.js';
import { elapsed, stepOf } from '../agent/run-step.js';
import type { GitHubPort } from './port.js';
import { renderStatusComment, type Phase, type StatusState } from './status-comment.js';
import { redactSecrets } from './sanitize.js';
import { logger } from '../log.js';

const log = logger('status-comment');

export interface StatusReporter {
  readonly state: StatusState;
  /** Merge a patch; writes now when the phase changed or `force`, else when the interval has passed. */
  set(patch: Partial<StatusState>, force?: boolean): Promise<void>;
  /** Fold a RunEvent into the state (turns, tokens, cost, todos, verifying). */
  onEvent(ev: RunEvent): void;
  /** Write any pending change now. */
  flush(): Promise<void>;
}

export const STATUS_HEARTBEAT_MS = 30_000;

const FINISHED: ReadonlySet<Phase> = new Set(['done', 'failed', 'cancelled', 'aborted']);

/** The step in progress for the heartbeat line: the phase until a run event names one. */
function stepClock(now: () => number, phase: Phase) {
  let step = { label: phase as string, since: now() };
  let testCommand: string | undefined;
  return {
    phase(p: Phase): void {
      step = { label: p, since: now() };
    },
    event(ev: RunEvent): void {
      if (ev.type === 'run_start' && ev.test) testCommand = ev.test.command;
      const label = stepOf(ev, testCommand ? { testCommand } : {});
      if (label !== undefined && label !== step.label) step = { label, since: now() };
    },
    /** As a code span: data from the run, never markdown or a mention; secrets redacted. */
    line(): string {
      const label = redactSecrets(step.label).replace(/[`\r\n]+/g, ' ');
      return `⏳ Now: \`${label}\` · ${elapsed(now() - step.since)}`;
    },
  };
}

/** Calls `write` when nothing was written for `idleMs`, until the run is finished. */
function startBeat(idleMs: number, sinceWrite: () => number, finished: () => boolean, write: () => void): NodeJS.Timeout {
  const beat = setInterval(
    () => {
      if (finished()) clearInterval(beat);
      else if (sinceWrite() >= idleMs) write();
    },
    Math.max(10, Math.floor(idleMs / 3)),
  );
  beat.unref();
  return beat;
}

export function createStatusReporter(
  github: Pick<GitHubPort, 'updateComment'>,
  commentId: number,
  initial: StatusState,
  opts: { intervalMs?: number; now?: () => number; heartbeatMs?: number } = {},
): StatusReporter {
  const intervalMs = opts.intervalMs ?? 3000;
  const heartbeatMs = opts.heartbeatMs ?? STATUS_HEARTBEAT_MS;
  const now = opts.now ?? Date.now;
  const state: StatusState = { ...initial };
  let lastWrite = 0;
  const born = now(); // the comment was just posted: the first beat is heartbeatMs after this
  let dirty = false;
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const clock = stepClock(now, state.phase);
  const finished = (): boolean => FINISHED.has(state.phase);
  const render = (): string => (finished() ? renderStatusComment(state) : `${renderStatusComment(state)}\n\n${clock.line()}`);

  const write = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    dirty = false;
    lastWrite = now();
    if (finished()) clearInterval(beat);
    const body = render();
    writing = writing
      .then(() => github.updateComment(commentId, body))
      .catch((e: unknown) => log.warn({ err: (e as Error).message }, 'status comment update failed'));
    return writing;
  };

  const schedule = (): void => {
    dirty = true;
    const wait = lastWrite + intervalMs - now();
    if (wait <= 0) void write();
    else if (!timer) {
      timer = setTimeout(() => void write(), wait);
      timer.unref();
    }
  };

  // The heartbeat: a rewrite when nothing was written for heartbeatMs and the run is not finished.
  const beat = startBeat(
    heartbeatMs,
    () => now() - Math.max(lastWrite, born),
    finished,
    () => void write(),
  );

  const setPhase = (phase: Phase): void => {
    if (state.phase !== phase) {
      state.phase = phase;
      void write();
    }
  };

  return {
    state,
    async set(patch, force = false) {
      const phaseChanged = patch.phase !== undefined && patch.phase !== state.phase;
      Object.assign(state, patch);
      if (phaseChanged) clock.phase(state.phase);
      if (phaseChanged || force) await write();
      else schedule();
    },
    onEvent(ev) {
      clock.event(ev);
      const effect = applyEvent(state, ev);
      if (effect === 'write') void write();
      else if (effect === 'verifying') setPhase('verifying');
      else if (effect === 'schedule') schedule();
    },
    async flush() {
      if (dirty) await write();
      else await writing;
    },
  };
}

/** What a run event changes in the status comment: its fields (updated here), then whether to write now, enter verifying, or schedule. */
function applyEvent(state: StatusState, ev: RunEvent): 'write' | 'verifying' | 'schedule' | 'none' {
  switch (ev.type) {
    case 'run_start':
      if (ev.sandbox) state.sandbox = ev.sandbox;
      if (ev.sandboxReason) state.sandboxReason = ev.sandboxReason;
      return 'write';
    case 'assistant':
      state.turns = ev.turn;
      state.inputTokens = (state.inputTokens ?? 0) + ev.usage.inputTokens + ev.usage.cacheReadTokens + ev.usage.cacheWriteTokens;
      state.outputTokens = (state.outputTokens ?? 0) + ev.usage.outputTokens;
      state.costUsd = (state.costUsd ?? 0) + ev.costUsd;
      return 'schedule';
    case 'todo':
      state.todos = ev.todos;
      return 'schedule';
    case 'test_run':
      return ev.run.by === 'harness' ? 'verifying' : 'schedule';
    case 'gate':
      return ev.final ? 'verifying' : 'schedule';
    default:
      return 'none';
  }
}
