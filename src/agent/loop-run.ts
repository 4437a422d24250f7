/** The loop's state for one run and the bookkeeping around it: budgets, compactions, responses, tool outcomes. */
import type { ImageBlock, Message, ModelClient, ModelResponse, TextBlock, ToolSchema, Usage, UserBlock } from '../model/model-client.js';
import { emptyUsage } from '../model/model-client.js';
import type { ToolResult } from '../tools/define-tool.js';
import { budgetExceeded } from './budget.js';
import { spendingModel } from './budget-model.js';
import type { CompactionResult, CompactionState, DynamicFacts } from './context/types.js';
import type { EventQueue } from './events.js';
import type { AgentDeps, LoopStatus, RunResult } from './loop.js';
import { LIMITS } from './recovery.js';
import type { ToolOutcome } from './run-tools.js';
import { createStuckDetector, type StuckDetector } from './stuck.js';
import { createCompactionBreaker, type CompactionBreaker } from './context/compaction-breaker.js';
import { createVerificationNudge, type VerificationNudge } from './nudge/verification-nudge.js';

export interface LoopRun {
  readonly deps: AgentDeps;
  /** The model every request of this loop goes through (turns and compaction summaries): drawing from `deps.spend` when given. */
  readonly model: ModelClient;
  readonly events: EventQueue;
  /** Fires on cancel or when the time budget runs out. */
  readonly signal: AbortSignal;
  readonly now: () => Date;
  readonly startedAtMs: number;
  readonly system: TextBlock[];
  /** The task's images: they open the first user message (kept when session hooks rewrite it). */
  readonly images?: ImageBlock[];
  /** The tool list sent; grows when ToolSearch loads a deferred tool (refreshTools). */
  tools: ToolSchema[];
  readonly stuck: StuckDetector;
  /** Reminds the model to verify when it closes a plan that had no verification step. */
  readonly nudge: VerificationNudge;
  messages: Message[];
  /** What a compaction summary must keep. */
  memory: CompactionState;
  usage: Usage;
  costUsd: number;
  turns: number;
  compactions: number;
  /** Ends the run after LIMITS.compactionFailures failed compactions in a row. */
  readonly breaker: CompactionBreaker;
  promptTooLong: number;
  continuations: number;
  stopBlocks: number;
  finalText: string;
}

/** The first user message: the task's images (if any) before its text. */
export function firstMessage(prompt: string, images: ImageBlock[] | undefined): Message {
  return { role: 'user', content: images?.length ? [...images, { type: 'text', text: prompt }] : prompt };
}

export function startRun(
  deps: AgentDeps,
  events: EventQueue,
  signal: AbortSignal,
  now: () => Date,
  prompt: string,
  images?: ImageBlock[],
): LoopRun {
  return {
    deps,
    model: deps.spend ? spendingModel(deps.model, deps.spend, deps.costOf) : deps.model,
    events,
    signal,
    now,
    startedAtMs: now().getTime(),
    system: deps.context.system(),
    tools: deps.context.tools(deps.toolbox.schemas()),
    stuck: createStuckDetector(),
    nudge: createVerificationNudge(),
    messages: [firstMessage(prompt, images)],
    ...(images?.length ? { images } : {}),
    memory: { todos: [], filesEdited: [], gates: [], failingLogs: [] },
    usage: emptyUsage(),
    costUsd: 0,
    turns: 0,
    compactions: 0,
    breaker: createCompactionBreaker(),
    promptTooLong: 0,
    continuations: 0,
    stopBlocks: 0,
    finalText: '',
  };
}

/** The tool list for the next request: the toolbox's, when ToolSearch loaded tools since the last one. */
export function refreshTools(run: LoopRun): void {
  const schemas = run.deps.toolbox.schemas();
  if (schemas.length !== run.tools.length) run.tools = run.deps.context.tools(schemas);
}

/** Why the run must stop now (cancel, a budget), or undefined. */
export function stopReason(run: LoopRun): string | undefined {
  const { deps } = run;
  if (deps.signal?.aborted) return 'cancelled';
  const shared = deps.spend?.exceeded();
  if (shared) return shared;
  const over = budgetExceeded(deps.budget, { turns: run.turns, costUsd: run.costUsd, startedAtMs: run.startedAtMs }, run.now().getTime());
  if (over) return over;
  return run.signal.aborted ? `time budget exhausted (${Math.round(deps.budget.timeoutMs / 60000)} min)` : undefined;
}

export function endRun(run: LoopRun, status: LoopStatus, reason: string, acceptedTree?: string): RunResult {
  const { memory, finalText, turns, usage, costUsd, compactions } = run;
  const result: RunResult = { status, reason, gates: memory.gates, finalText, turns, usage, costUsd, compactions };
  return acceptedTree === undefined ? result : { ...result, acceptedTree };
}

/** The facts of the reminder sent with the next request. */
export function dynamicFacts(run: LoopRun): DynamicFacts {
  const { deps } = run;
  const elapsed = run.now().getTime() - run.startedAtMs;
  // With a shared spend the model is told the run's totals: its sub-agents' turns and cost included.
  const spend = deps.spend;
  return {
    date: run.now().toISOString().slice(0, 10),
    branch: deps.branch,
    turn: (spend ? spend.turns() : run.turns) + 1,
    maxTurns: spend?.maxTurns ?? deps.budget.maxTurns,
    costUsd: spend ? spend.costUsd() : run.costUsd,
    maxCostUsd: spend?.maxCostUsd ?? deps.budget.maxCostUsd,
    minutesLeft: Math.max(0, Math.round((deps.budget.timeoutMs - elapsed) / 60000)),
    gates: run.memory.gates,
    todos: run.memory.todos,
  };
}

/**
 * Records a compaction; the run ends after LIMITS.compactionFailures failures in a row. Every compaction
 * that replaced the history counts (ok: any kind, threshold or prompt-too-long triggered), exactly as
 * evidence usage.compactions counts ok compaction events; a failed attempt left the history unchanged, so
 * it is not a compaction: it shows as an ok:false event and counts toward the breaker only.
 */
export function recordCompaction(run: LoopRun, r: CompactionResult): RunResult | undefined {
  const detail = r.detail ? { detail: r.detail } : {};
  run.events.push({ type: 'compaction', kind: r.kind, beforeTokens: r.beforeTokens, afterTokens: r.afterTokens, ok: r.ok, ...detail });
  if (r.ok) {
    run.messages = r.messages;
    run.compactions++;
  }
  if (!run.breaker.record(r)) return undefined;
  return endRun(run, 'aborted', `context compaction failed ${run.breaker.failures} times in a row`);
}

/** Usage, cost and the last text of a model response. */
export function recordResponse(run: LoopRun, response: ModelResponse): void {
  const turnCost = run.deps.costOf(response.usage);
  run.usage = addUsage(run.usage, response.usage);
  run.costUsd += turnCost;
  run.events.push({
    type: 'assistant',
    turn: run.turns,
    content: response.content,
    stopReason: response.stopReason,
    usage: response.usage,
    costUsd: turnCost,
  });
  const text = response.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
  if (text) run.finalText = text;
}

/**
 * After one turn's tool calls: the results for the model (plus a nudge when a call repeats without
 * progress), what the compaction summary must keep, and whether the run ends (stuck, or a fatal error).
 */
export function recordOutcomes(run: LoopRun, outcomes: readonly ToolOutcome[]): { blocks: UserBlock[]; stop?: string } {
  const blocks: UserBlock[] = outcomes.map((o) => o.block);
  let stop: string | undefined;
  for (const o of outcomes) {
    noteEffects(run.memory, o.result);
    // A sub-agent's requests are the run's: its cost counts towards max_cost_usd.
    for (const e of o.result.effects ?? []) if (e.type === 'model_usage') run.costUsd += e.costUsd;
    const s = run.stuck.observe(o.name, o.input, o.block.content);
    if (s === 'abort') stop = `no progress: the same ${o.name} call returned the same result ${LIMITS.stuckAbort} times in a row`;
    if (s === 'nudge')
      blocks.push({
        type: 'text',
        text: `You have made the same ${o.name} call with the same result several times. It will not change: try a different approach.`,
      });
  }
  const verify = run.deps.verifier ? planClosedUnverified(run, outcomes) : undefined;
  if (verify) blocks.push({ type: 'text', text: verify });
  return stop ? { blocks, stop } : { blocks };
}

/** The verification nudge for the latest todo list this turn wrote, if it closed a plan without a check. */
function planClosedUnverified(run: LoopRun, outcomes: readonly ToolOutcome[]): string | undefined {
  const lists = outcomes.flatMap((o) =>
    o.result.isError ? [] : (o.result.effects ?? []).flatMap((e) => (e.type === 'todos' ? [e.todos] : [])),
  );
  const latest = lists[lists.length - 1];
  return latest ? run.nudge.observe(latest) : undefined;
}

/** What the compaction summary must keep: the todo list, the files edited, the logs of failed calls. */
function noteEffects(memory: CompactionState, result: ToolResult): void {
  const seq = (memory.seq = (memory.seq ?? 0) + 1);
  for (const e of result.isError ? [] : (result.effects ?? [])) {
    if (e.type === 'todos') memory.todos = e.todos;
    if (e.type === 'file_changed' && !memory.filesEdited.includes(e.path)) memory.filesEdited.push(e.path);
    if (e.type !== 'file_changed') continue;
    memory.lastEditSeq = seq;
    (memory.edits ??= {})[e.path] = seq;
  }
  // The ledger of commands run (exec effects, failing ones included): compaction re-attaches it.
  for (const e of result.effects ?? []) {
    if (e.type !== 'exec') continue;
    const log = e.outputPath ?? result.outputPath;
    (memory.checks ??= []).push({
      command: e.command,
      exitCode: e.exitCode,
      timedOut: e.timedOut,
      seq,
      ...(log ? { outputPath: log } : {}),
    });
    if (memory.checks.length > 200) memory.checks.splice(0, memory.checks.length - 200);
  }
  const log = result.outputPath;
  if (result.isError && log !== undefined && !memory.failingLogs.includes(log)) memory.failingLogs.push(log);
}

function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}
