/**
 * Keeps one status comment in step with a run: RunEvents fold into the state, and the comment is edited
 * at most every `intervalMs` (phase changes and the final state are written at once).
 */
import type { RunEvent } from '../agent/events.js';
import type { GitHubPort } from './port.js';
import { renderStatusComment, type Phase, type StatusState } from './status-comment.js';
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

export function createStatusReporter(
  github: Pick<GitHubPort, 'updateComment'>,
  commentId: number,
  initial: StatusState,
  opts: { intervalMs?: number; now?: () => number } = {},
): StatusReporter {
  const intervalMs = opts.intervalMs ?? 3000;
  const now = opts.now ?? Date.now;
  const state: StatusState = { ...initial };
  let lastWrite = 0;
  let dirty = false;
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const write = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    dirty = false;
    lastWrite = now();
    const body = renderStatusComment(state);
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
      if (phaseChanged || force) await write();
      else schedule();
    },
    onEvent(ev) {
      switch (ev.type) {
        case 'run_start':
          if (ev.sandbox) state.sandbox = ev.sandbox;
          if (ev.sandboxReason) state.sandboxReason = ev.sandboxReason;
          void write();
          return;
        case 'assistant':
          state.turns = ev.turn;
          state.inputTokens = (state.inputTokens ?? 0) + ev.usage.inputTokens + ev.usage.cacheReadTokens + ev.usage.cacheWriteTokens;
          state.outputTokens = (state.outputTokens ?? 0) + ev.usage.outputTokens;
          state.costUsd = (state.costUsd ?? 0) + ev.costUsd;
          break;
        case 'todo':
          state.todos = ev.todos;
          break;
        case 'test_run':
          if (ev.run.by === 'harness') return setPhase('verifying');
          break;
        case 'gate':
          if (ev.final) return setPhase('verifying');
          break;
        default:
          return;
      }
      schedule();
    },
    async flush() {
      if (dirty) await write();
      else await writing;
    },
  };
}
