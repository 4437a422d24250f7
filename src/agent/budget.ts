/** Run budgets (turns, cost, wall clock) and cancel, checked between steps of the loop. */
export interface Budget {
  maxTurns: number;
  maxCostUsd: number;
  timeoutMs: number;
}

export interface BudgetState {
  turns: number;
  costUsd: number;
  startedAtMs: number;
}

/** Why the run must stop now, or undefined. */
export function budgetExceeded(b: Budget, s: BudgetState, nowMs: number, signal?: AbortSignal): string | undefined {
  if (signal?.aborted) return 'cancelled';
  if (nowMs - s.startedAtMs >= b.timeoutMs) return `time budget exhausted (${Math.round(b.timeoutMs / 60000)} min)`;
  if (s.turns >= b.maxTurns) return `turn budget exhausted (${b.maxTurns} turns)`;
  if (s.costUsd >= b.maxCostUsd) return `cost budget exhausted ($${s.costUsd.toFixed(2)} of $${b.maxCostUsd.toFixed(2)})`;
  return undefined;
}

/** An AbortSignal that fires on the caller's signal or after timeoutMs, whichever comes first. */
export function runSignal(timeoutMs: number, parent?: AbortSignal): { signal: AbortSignal; dispose(): void } {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(new Error('time budget exhausted')), timeoutMs);
  timer.unref?.();
  const onParent = () => ctl.abort(parent?.reason ?? new Error('cancelled'));
  if (parent) {
    if (parent.aborted) onParent();
    else parent.addEventListener('abort', onParent, { once: true });
  }
  return {
    signal: ctl.signal,
    dispose() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParent);
    },
  };
}
