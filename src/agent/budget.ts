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

/**
 * What the whole run has spent, shared by every model conversation it starts (the agent's, each Task
 * sub-agent's, compaction summaries): one cap on turns and cost (config `max_turns`, `max_cost_usd`).
 * Before a request is sent its worst case is held against the cap (`hold`); the price the answer reports
 * replaces the hold when it arrives. Requests in flight at once hold their worst cases together, so
 * sub-agents started in one turn cannot overdraw between them: when the cap cannot cover a new hold while
 * others are held, the request waits for them; when nothing is held and it still does not fit, it is not sent.
 */
export interface RunSpend {
  readonly maxTurns: number;
  readonly maxCostUsd: number;
  /** Requests counted as turns (every conversation's), and the cost of every answer so far. */
  turns(): number;
  costUsd(): number;
  /** What is left for a new conversation: turns and cost, net of what requests in flight hold. */
  left(): { turns: number; costUsd: number };
  /** One more request (or `-1`: a request the cap refused before it was sent is not one). */
  addTurn(delta?: 1 | -1): void;
  /** Why no conversation of the run may make another request, or undefined. */
  exceeded(): string | undefined;
  /**
   * Holds a request's worst case: `inputUsd` plus up to `maxTokens` output tokens at `outputUsdPerToken`,
   * `maxTokens` lowered to what the cap leaves. Resolves to the hold, or to the reason it cannot be sent
   * (not even `minTokens` of output fit and no other request holds anything).
   */
  hold(request: SpendRequest, signal?: AbortSignal): Promise<SpendHold | { refused: string }>;
}

export interface SpendRequest {
  inputUsd: number;
  outputUsdPerToken: number;
  maxTokens: number;
  minTokens: number;
}

export interface SpendHold {
  /** The output tokens this request may use (at most the request's own max_tokens). */
  maxTokens: number;
  /** What the hold keeps back: the request's input and `maxTokens` of output at their prices. */
  worstUsd: number;
  /** The answer's price replaces the hold (call once; `release` when no answer came). */
  settle(costUsd: number): void;
  release(): void;
}

const usd = (n: number): string => `$${n.toFixed(n < 1 ? 4 : 2)}`;

/** The run's shared spend for caps `maxTurns` and `maxCostUsd`. */
export function createRunSpend(b: Pick<Budget, 'maxTurns' | 'maxCostUsd'>): RunSpend {
  let turns = 0;
  let spent = 0;
  let held = 0;
  const waiters = new Set<() => void>();
  const wake = (): void => {
    for (const w of [...waiters]) w();
  };
  const tryHold = (r: SpendRequest): SpendHold | { refused: string } | undefined => {
    const room = b.maxCostUsd - spent - held - r.inputUsd;
    const maxTokens = Math.min(r.maxTokens, Math.floor(room / r.outputUsdPerToken));
    if (maxTokens < r.minTokens) {
      if (held > 0) return undefined;
      const worst = r.inputUsd + r.minTokens * r.outputUsdPerToken;
      return {
        refused: `cost budget exhausted (${usd(spent)} of ${usd(b.maxCostUsd)} spent; the next request could cost ${usd(worst)}, more than is left)`,
      };
    }
    const amount = r.inputUsd + maxTokens * r.outputUsdPerToken;
    held += amount;
    let open = true;
    const end = (cost: number): void => {
      if (!open) return;
      open = false;
      held -= amount;
      spent += cost;
      wake();
    };
    return { maxTokens, worstUsd: amount, settle: (cost) => end(cost), release: () => end(0) };
  };
  return {
    maxTurns: b.maxTurns,
    maxCostUsd: b.maxCostUsd,
    turns: () => turns,
    costUsd: () => spent,
    left: () => ({ turns: Math.max(0, b.maxTurns - turns), costUsd: Math.max(0, b.maxCostUsd - spent - held) }),
    addTurn: (delta = 1) => void (turns += delta),
    exceeded() {
      if (turns >= b.maxTurns) return `turn budget exhausted (${b.maxTurns} turns, sub-agents' included)`;
      if (spent >= b.maxCostUsd) return `cost budget exhausted (${usd(spent)} of ${usd(b.maxCostUsd)})`;
      return undefined;
    },
    async hold(r, signal) {
      for (;;) {
        if (signal?.aborted) return { refused: 'cancelled' };
        const h = tryHold(r);
        if (h) return h;
        await new Promise<void>((resolve) => {
          const done = (): void => {
            waiters.delete(done);
            signal?.removeEventListener('abort', done);
            resolve();
          };
          waiters.add(done);
          signal?.addEventListener('abort', done, { once: true });
        });
      }
    },
  };
}
