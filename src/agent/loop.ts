import type { AssistantBlock, ImageBlock, ModelClient, ModelSettings, ToolUseBlock, Usage } from '../model/model-client.js';
import { isFatal, type ToolContext } from '../tools/define-tool.js';
import { runSignal, type Budget, type RunSpend } from './budget.js';
import { callModel } from './call-model.js';
import type { ContextManager } from './context/types.js';
import { EventQueue, type GateResult, type RunEvent } from './events.js';
import type { HookPayload, HookRunner } from './hooks/types.js';
import {
  dynamicFacts,
  endRun,
  recordCompaction,
  recordOutcomes,
  recordResponse,
  refreshTools,
  firstMessage,
  startRun,
  stopReason,
  type LoopRun,
} from './loop-run.js';
import type { PermissionPolicy } from './permissions/types.js';
import { CONTINUE_MESSAGE, LIMITS, noGateMessage } from './recovery.js';
import { runTools } from './run-tools.js';
import type { Toolbox } from './toolbox.js';
import type { Verifier } from './verification/types.js';

export interface AgentTask {
  /** The first user message (the system prompt already carries the task's data). */
  prompt: string;
  /** Images the issue carried (its attached screenshots): they open the first user message. */
  images?: ImageBlock[];
}

export interface AgentDeps {
  model: ModelClient;
  modelId: string;
  toolbox: Toolbox;
  policy: PermissionPolicy;
  hooks: HookRunner;
  /** Absent in plan mode: nothing is verified, nothing committed. */
  verifier?: Verifier;
  context: ContextManager;
  toolContext: Omit<ToolContext, 'callId' | 'signal'>;
  budget: Budget;
  /**
   * The run's shared spend (budget.ts): this conversation's requests hold their worst case against it and
   * count in it as they are answered; the loop stops when it is spent. Absent = this loop's budget alone.
   */
  spend?: RunSpend;
  costOf: (usage: Usage) => number;
  maxStopBlocks: number;
  maxTokens?: number;
  /** Thinking and effort for every turn's request (config `thinking:` / `effort:`). */
  modelSettings?: ModelSettings;
  branch: string;
  signal?: AbortSignal;
  /** Shared with collaborators (the verifier) so their events are yielded in order. */
  events?: EventQueue;
  now?: () => Date;
  /** Backoff scale for broken-stream retries (tests use 0). */
  retryBaseMs?: number;
}

export type LoopStatus = 'completed' | 'unverified' | 'aborted';

export interface RunResult {
  status: LoopStatus;
  reason: string;
  /** The gates of the last evaluation (final when it ran). */
  gates: GateResult[];
  finalText: string;
  turns: number;
  usage: Usage;
  costUsd: number;
  compactions: number;
  /** When completed (and not a read-only run): the worktree tree the verifier accepted; only that tree may be committed. */
  acceptedTree?: string;
}

/**
 * The agent loop: request → stream → tool calls (policy, hooks, execution) → results → … until the model
 * stops and the Stop gates let it. Yields every RunEvent as it happens; returns how the run ended.
 * Every counter is bounded; no path loops forever. Only budgets, cancel, or a fatal model error end it early.
 */
export async function* runAgent(task: AgentTask, deps: AgentDeps): AsyncGenerator<RunEvent, RunResult> {
  const now = deps.now ?? (() => new Date());
  const events = deps.events ?? new EventQueue(now);
  const { signal, dispose } = runSignal(deps.budget.timeoutMs, deps.signal);
  const run = startRun(deps, events, signal, now, task.prompt, task.images);
  try {
    const result = yield* runTurns(run, task.prompt);
    // SessionEnd hooks: told how the run ended; they cannot change it (their errors are recorded).
    await deps.hooks.run('SessionEnd', sessionEndPayload(run, result));
    yield* events.drain();
    return result;
  } finally {
    dispose();
  }
}

function sessionEndPayload(run: LoopRun, result: RunResult): HookPayload {
  return { hook_event_name: 'SessionEnd', cwd: run.deps.toolContext.root, status: result.status, reason: result.reason };
}

/** The session hooks, the turns, then the harness's final check. */
async function* runTurns(run: LoopRun, prompt: string): AsyncGenerator<RunEvent, RunResult> {
  const { deps, events, signal } = run;
  const blocked = await sessionHooks(run, prompt);
  yield* events.drain();
  if (blocked) return endRun(run, 'aborted', blocked);
  for (;;) {
    const step = yield* turn(run);
    if (step === 'stopped') break;
    if (step !== 'next') return step;
  }
  // The model stopped and the gates passed: the harness's own final check is the evidence.
  const final = await deps.verifier!.finalCheck();
  run.memory.gates = final.gates;
  yield* events.drain();
  if (signal.aborted) return endRun(run, 'aborted', stopReason(run) ?? 'cancelled');
  if (!final.ok) {
    await deps.verifier!.closingRun?.();
    yield* events.drain();
    return endRun(run, 'unverified', `the final check failed: ${failedNames(final.gates)}`);
  }
  return endRun(run, 'completed', 'every gate passed on the final tree', final.acceptedTree);
}

/**
 * SessionStart and UserPromptSubmit hooks: context they add joins the first message (both events'); a
 * UserPromptSubmit block refuses the task. Returns the block's reason, if any.
 */
async function sessionHooks(run: LoopRun, prompt: string): Promise<string | undefined> {
  const extra: string[] = [];
  for (const ev of ['SessionStart', 'UserPromptSubmit'] as const) {
    const payload: HookPayload = { hook_event_name: ev, cwd: run.deps.toolContext.root, ...(ev === 'UserPromptSubmit' ? { prompt } : {}) };
    const outcomes = await run.deps.hooks.run(ev, payload);
    const block = outcomes.find((o) => o.kind === 'block');
    if (block?.kind === 'block') return `a ${ev} hook refused the task: ${block.reason}`;
    extra.push(...outcomes.flatMap((o) => (o.kind === 'context' ? [o.text] : [])));
  }
  if (extra.length) run.messages = [firstMessage(`${prompt}\n\n${extra.join('\n')}`, run.images)];
  return undefined;
}

/** One turn: budgets, compaction, the request, then the tool calls or the stop. 'stopped' = the gates let the model stop. */
async function* turn(run: LoopRun): AsyncGenerator<RunEvent, 'next' | 'stopped' | RunResult> {
  const { deps, events } = run;
  const over = stopReason(run);
  if (over) return endRun(run, 'aborted', over);
  const compacted = await deps.context.maybeCompact(run.messages, run.memory, run.model);
  if (compacted) {
    const stop = recordCompaction(run, compacted);
    yield* events.drain();
    if (stop) return stop;
  }
  refreshTools(run);
  const sent = deps.context.prepare(run.messages, dynamicFacts(run));
  run.turns++;
  deps.spend?.addTurn();
  events.push({ type: 'request', turn: run.turns, messages: sent.length, estimatedTokens: deps.context.estimateTokens(sent) });
  yield* events.drain();
  const call = yield* callModel(run, sent);
  if ('end' in call) return call.end;
  if ('compacted' in call) return 'next';
  const { response } = call;
  recordResponse(run, response);
  yield* events.drain();
  if (response.stopReason === 'max_tokens') return continueCut(run, response.content);
  run.continuations = 0;
  run.messages.push({ role: 'assistant', content: response.content });
  const calls = response.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
  if (calls.length === 0) return yield* modelStops(run);
  const outcomes = await runTools(calls, {
    toolbox: deps.toolbox,
    policy: deps.policy,
    hooks: deps.hooks,
    verifier: deps.verifier,
    base: deps.toolContext,
    signal: run.signal,
    events,
  });
  const { blocks, stop } = recordOutcomes(run, outcomes);
  run.messages.push({ role: 'user', content: blocks });
  yield* events.drain();
  if (stop) return endRun(run, 'aborted', stop);
  if (outcomes.some((o) => isFatal(o.result.errorKind))) return endRun(run, 'aborted', stopReason(run) ?? 'a tool call was cancelled');
  return 'next';
}

/** The output limit cut the answer: keep its finished text and ask the model to go on (bounded). */
function continueCut(run: LoopRun, content: AssistantBlock[]): 'next' | RunResult {
  // A tool_use cut by the output limit is incomplete: keep only the finished text.
  const kept: AssistantBlock[] = content.filter((b) => b.type !== 'tool_use');
  run.messages.push({ role: 'assistant', content: kept.length ? kept : [{ type: 'text', text: '(output cut at the limit)' }] });
  run.continuations++;
  if (run.continuations > LIMITS.continuations)
    return endRun(run, 'aborted', `the model hit its output limit ${run.continuations} times in a row`);
  run.messages.push({ role: 'user', content: CONTINUE_MESSAGE });
  return 'next';
}

/** The model wants to stop: the Stop gates decide; a failing gate sends it back (bounded by maxStopBlocks). */
async function* modelStops(run: LoopRun): AsyncGenerator<RunEvent, 'next' | 'stopped' | RunResult> {
  const { deps } = run;
  if (!deps.verifier) return endRun(run, 'completed', 'the model finished (read-only run: nothing to verify)');
  const verdict = await deps.verifier.evaluate();
  run.memory.gates = verdict.gates;
  yield* run.events.drain();
  if (verdict.ok) return 'stopped';
  run.stopBlocks++;
  if (run.stopBlocks > deps.maxStopBlocks) {
    await deps.verifier.closingRun?.();
    yield* run.events.drain();
    return endRun(run, 'unverified', `gates still failing after ${deps.maxStopBlocks} returns to the model: ${failedNames(verdict.gates)}`);
  }
  run.messages.push({ role: 'user', content: verdict.message || noGateMessage() });
  return 'next';
}

function failedNames(gates: GateResult[]): string {
  const names = gates.filter((g) => !g.passed).map((g) => g.name);
  return names.length ? names.join(', ') : 'no gate result';
}
