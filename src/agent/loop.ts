import type { AssistantBlock, Message, ModelClient, ToolUseBlock, Usage, UserBlock } from '../model/model-client.js';
import { ModelError, emptyUsage } from '../model/model-client.js';
import { isFatal, type ToolContext, type ToolResult } from '../tools/define-tool.js';
import { budgetExceeded, runSignal, type Budget } from './budget.js';
import type { CompactionResult, CompactionState, ContextManager } from './context/types.js';
import { EventQueue, type GateResult, type RunEvent } from './events.js';
import type { HookRunner } from './hooks/types.js';
import type { PermissionPolicy } from './permissions/types.js';
import { CONTINUE_MESSAGE, LIMITS, backoffMs, noGateMessage } from './recovery.js';
import { runTools } from './run-tools.js';
import { createStuckDetector } from './stuck.js';
import type { Toolbox } from './toolbox.js';
import type { Verifier } from './verification/types.js';

export interface AgentTask {
  /** The first user message (the system prompt already carries the task's data). */
  prompt: string;
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
  costOf: (usage: Usage) => number;
  maxStopBlocks: number;
  maxTokens?: number;
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

function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The agent loop: request → stream → tool calls (policy, hooks, execution) → results → … until the model
 * stops and the Stop gates let it. Yields every RunEvent as it happens; returns how the run ended.
 * Every counter is bounded; no path loops forever. Only budgets, cancel, or a fatal model error end it early.
 */
export async function* runAgent(task: AgentTask, deps: AgentDeps): AsyncGenerator<RunEvent, RunResult> {
  const now = deps.now ?? (() => new Date());
  const events = deps.events ?? new EventQueue(now);
  const startedAtMs = now().getTime();
  const { signal, dispose } = runSignal(deps.budget.timeoutMs, deps.signal);
  const ctx = deps.context;
  const system = ctx.system();
  const tools = ctx.tools(deps.toolbox.schemas());
  const stuck = createStuckDetector();
  const state: CompactionState = { todos: [], filesEdited: [], gates: [], failingLogs: [] };
  let usage = emptyUsage();
  let costUsd = 0;
  let turns = 0;
  let compactions = 0;
  let compactFailures = 0;
  let promptTooLong = 0;
  let continuations = 0;
  let stopBlocks = 0;
  let finalText = '';

  const stopReason = (): string | undefined => {
    if (deps.signal?.aborted) return 'cancelled';
    const over = budgetExceeded(deps.budget, { turns, costUsd, startedAtMs }, now().getTime());
    if (over) return over;
    return signal.aborted ? `time budget exhausted (${Math.round(deps.budget.timeoutMs / 60000)} min)` : undefined;
  };
  const end = (status: LoopStatus, reason: string, acceptedTree?: string): RunResult => ({
    status, reason, gates: state.gates, finalText, turns, usage, costUsd, compactions, ...(acceptedTree !== undefined ? { acceptedTree } : {}),
  });

  let messages: Message[] = [{ role: 'user', content: task.prompt }];
  try {
    for (const ev of ['SessionStart', 'UserPromptSubmit'] as const) {
      const outcomes = await deps.hooks.run(ev, { hook_event_name: ev, cwd: deps.toolContext.root });
      const extra = outcomes.flatMap((o) => (o.kind === 'context' ? [o.text] : []));
      if (extra.length) messages = [{ role: 'user', content: `${task.prompt}\n\n${extra.join('\n')}` }];
    }
    yield* events.drain();

    const recordCompaction = (r: CompactionResult): RunResult | undefined => {
      events.push({ type: 'compaction', kind: r.kind, beforeTokens: r.beforeTokens, afterTokens: r.afterTokens, ok: r.ok, ...(r.detail ? { detail: r.detail } : {}) });
      if (r.ok) {
        messages = r.messages;
        compactions++;
        compactFailures = 0;
        return undefined;
      }
      compactFailures++;
      return compactFailures >= LIMITS.compactionFailures ? end('aborted', `context compaction failed ${compactFailures} times in a row`) : undefined;
    };

    for (;;) {
      const over = stopReason();
      if (over) return end('aborted', over);

      const compacted = await ctx.maybeCompact(messages, state, deps.model);
      if (compacted) {
        const stop = recordCompaction(compacted);
        yield* events.drain();
        if (stop) return stop;
      }

      const facts = {
        date: now().toISOString().slice(0, 10),
        branch: deps.branch,
        turn: turns + 1,
        maxTurns: deps.budget.maxTurns,
        costUsd,
        maxCostUsd: deps.budget.maxCostUsd,
        minutesLeft: Math.max(0, Math.round((deps.budget.timeoutMs - (now().getTime() - startedAtMs)) / 60000)),
        gates: state.gates,
        todos: state.todos,
      };
      const sent = ctx.prepare(messages, facts);
      turns++;
      events.push({ type: 'request', turn: turns, messages: sent.length, estimatedTokens: ctx.estimateTokens(sent) });
      yield* events.drain();

      let response;
      let brokenStreams = 0;
      for (;;) {
        try {
          response = await deps.model.send({ model: deps.modelId, system, tools, messages: sent, maxTokens: deps.maxTokens ?? 16000, signal });
          break;
        } catch (e) {
          const err = e instanceof ModelError ? e : new ModelError(signal.aborted ? 'aborted' : 'fatal', (e as Error).message);
          if (err.kind === 'stream_broken' && brokenStreams < LIMITS.brokenStreams && !signal.aborted) {
            brokenStreams++;
            events.push({ type: 'retry', turn: turns, reason: `stream broke: ${err.message}`, attempt: brokenStreams });
            yield* events.drain();
            await sleep(backoffMs(brokenStreams, deps.retryBaseMs));
            continue;
          }
          if (err.kind === 'prompt_too_long') {
            promptTooLong++;
            events.push({ type: 'error', kind: 'prompt_too_long', message: err.message });
            if (promptTooLong > LIMITS.promptTooLong) {
              yield* events.drain();
              return end('aborted', `the prompt stayed too long for the model after ${LIMITS.promptTooLong} compactions`);
            }
            const stop = recordCompaction(await ctx.forceCompact(messages, state, deps.model));
            yield* events.drain();
            if (stop) return stop;
            response = undefined;
            break;
          }
          if (err.kind === 'aborted' || signal.aborted) {
            return end('aborted', stopReason() ?? 'cancelled');
          }
          events.push({ type: 'error', kind: err.kind, message: err.message });
          yield* events.drain();
          return end('aborted', `model API unusable: ${err.message}`);
        }
      }
      if (!response) continue;

      const turnCost = deps.costOf(response.usage);
      usage = addUsage(usage, response.usage);
      costUsd += turnCost;
      events.push({ type: 'assistant', turn: turns, content: response.content, stopReason: response.stopReason, usage: response.usage, costUsd: turnCost });
      yield* events.drain();
      const text = response.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
      if (text) finalText = text;

      if (response.stopReason === 'max_tokens') {
        // A tool_use cut by the output limit is incomplete: keep only the finished text.
        const kept: AssistantBlock[] = response.content.filter((b) => b.type !== 'tool_use');
        messages.push({ role: 'assistant', content: kept.length ? kept : [{ type: 'text', text: '(output cut at the limit)' }] });
        continuations++;
        if (continuations > LIMITS.continuations) return end('aborted', `the model hit its output limit ${continuations} times in a row`);
        messages.push({ role: 'user', content: CONTINUE_MESSAGE });
        continue;
      }
      continuations = 0;
      messages.push({ role: 'assistant', content: response.content });

      const calls = response.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      if (calls.length === 0) {
        if (!deps.verifier) return end('completed', 'the model finished (read-only run: nothing to verify)');
        const verdict = await deps.verifier.evaluate();
        state.gates = verdict.gates;
        yield* events.drain();
        if (verdict.ok) break;
        stopBlocks++;
        if (stopBlocks > deps.maxStopBlocks) {
          return end('unverified', `gates still failing after ${deps.maxStopBlocks} returns to the model: ${failedNames(verdict.gates)}`);
        }
        messages.push({ role: 'user', content: verdict.message || noGateMessage() });
        continue;
      }

      const outcomes = await runTools(calls, { toolbox: deps.toolbox, policy: deps.policy, hooks: deps.hooks, verifier: deps.verifier, base: deps.toolContext, signal, events });
      const blocks: UserBlock[] = outcomes.map((o) => o.block);
      let abortStuck: string | undefined;
      for (const o of outcomes) {
        noteEffects(state, o.result);
        const s = stuck.observe(o.name, o.input, o.block.content);
        if (s === 'abort') abortStuck = `no progress: the same ${o.name} call returned the same result ${LIMITS.stuckAbort} times in a row`;
        if (s === 'nudge') blocks.push({ type: 'text', text: `You have made the same ${o.name} call with the same result several times. It will not change: try a different approach.` });
      }
      messages.push({ role: 'user', content: blocks });
      yield* events.drain();
      if (abortStuck) return end('aborted', abortStuck);
      if (outcomes.some((o) => isFatal(o.result.errorKind))) return end('aborted', stopReason() ?? 'a tool call was cancelled');
    }

    // The model stopped and the gates passed: the harness's own final check is the evidence.
    const final = await deps.verifier!.finalCheck();
    state.gates = final.gates;
    yield* events.drain();
    if (signal.aborted) return end('aborted', stopReason() ?? 'cancelled');
    return final.ok ? end('completed', 'every gate passed on the final tree', final.acceptedTree) : end('unverified', `the final check failed: ${failedNames(final.gates)}`);
  } finally {
    dispose();
  }
}

function failedNames(gates: GateResult[]): string {
  const names = gates.filter((g) => !g.passed).map((g) => g.name);
  return names.length ? names.join(', ') : 'no gate result';
}

/** What the compaction summary must keep: the todo list, the files edited, the logs of failed calls. */
function noteEffects(state: CompactionState, result: ToolResult): void {
  for (const e of result.isError ? [] : (result.effects ?? [])) {
    if (e.type === 'todos') state.todos = e.todos;
    if (e.type === 'file_changed' && !state.filesEdited.includes(e.path)) state.filesEdited.push(e.path);
  }
  const log = result.outputPath;
  if (result.isError && log !== undefined && !state.failingLogs.includes(log)) state.failingLogs.push(log);
}
