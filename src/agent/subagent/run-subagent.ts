import type { ModelClient, Usage } from '../../model/model-client.js';
import type { ToolContext, ToolResult } from '../../tools/define-tool.js';
import type { SubagentRequest, SubagentRunner } from '../../tools/task.js';
import type { RunSpend } from '../budget.js';
import type { EventQueue, RunEvent } from '../events.js';
import type { TranscriptWriter } from '../evidence/ledger.js';
import type { HookRunner } from '../hooks/types.js';
import { runAgent, type AgentDeps, type RunResult } from '../loop.js';
import type { PermissionPolicy } from '../permissions/types.js';
import type { Toolbox } from '../toolbox.js';
import { subagentContext } from './subagent-context.js';
import { TOKEN_BUDGET_SPENT, tokenBudget } from './token-budget.js';

/** A sub-agent's budgets: turns (requests), tokens (all of its requests), wall clock and cost. */
export interface SubagentLimits {
  maxTurns: number;
  maxTokens: number;
  timeoutMs: number;
  maxCostUsd: number;
}

export const SUBAGENT_LIMITS: SubagentLimits = { maxTurns: 20, maxTokens: 400_000, timeoutMs: 10 * 60_000, maxCostUsd: 2 };

export interface SubagentOptions {
  model: ModelClient;
  modelId: string;
  /** The sub-agent's tools (Read, Grep, Glob, Bash): never an edit tool, never Task itself. */
  toolbox: Toolbox;
  /** A plan-mode policy over those tools: reads, searches and read-only commands only. */
  policy: PermissionPolicy;
  /** The run's hooks: PreToolUse/PostToolUse apply to the sub-agent's calls; SubagentStop fires at its end. */
  hooks: HookRunner;
  /** The parent run's events: the sub-agent's denials, hook outcomes and one `subagent` event go there. */
  events: EventQueue;
  costOf: (usage: Usage) => number;
  limits?: Partial<SubagentLimits>;
  /**
   * The run's shared spend: a sub-agent's limits are the smaller of its own and what the run has left, its
   * requests hold their worst case against the run's cap and count in the run's total as they are answered.
   */
  spend?: RunSpend;
  /** Opens a transcript in the run folder (redacted like transcript.jsonl): `subagents/<id>.jsonl`. */
  transcripts?: (relPath: string) => TranscriptWriter;
  maxTokens?: number;
  retryBaseMs?: number;
}

/** A sub-agent's limits: its own, lowered to what the run has left (turns and cost). */
export function limitsFor(own: SubagentLimits, spend: RunSpend | undefined): SubagentLimits {
  if (!spend) return own;
  const left = spend.left();
  return { ...own, maxTurns: Math.min(own.maxTurns, left.turns), maxCostUsd: Math.min(own.maxCostUsd, left.costUsd) };
}

/** The transcript's path in the run folder: the call id, reduced to characters safe in a file name. */
export const subagentTranscriptPath = (callId: string): string => `subagents/${callId.replace(/[^A-Za-z0-9_-]/g, '_') || 'subagent'}.jsonl`;

/** Hooks for the sub-agent: its session does not re-run the run's SessionStart/UserPromptSubmit hooks. */
function subagentHooks(hooks: HookRunner): HookRunner {
  return {
    run: (event, payload) => (event === 'SessionStart' || event === 'UserPromptSubmit' ? Promise.resolve([]) : hooks.run(event, payload)),
  };
}

/** The sub-agent's events the parent's evidence needs: refused calls and hook outcomes. */
function forwarded(ev: RunEvent): boolean {
  return (ev.type === 'permission' && ev.behavior === 'deny') || ev.type === 'hook';
}

/**
 * The Task tool's runner: one read-only sub-agent through the same loop, in its own context (its own
 * messages, a copy of the parent's read-file state, its own tools and budgets), cancelled when the parent
 * is (its signal is the parent call's). Only its final report goes back to the parent, as the tool result.
 */
export function createSubagentRunner(opts: SubagentOptions): SubagentRunner {
  const own = { ...SUBAGENT_LIMITS, ...opts.limits };
  return async (request, ctx) => {
    const limits = limitsFor(own, opts.spend);
    const model = tokenBudget(opts.model, limits.maxTokens);
    const rel = subagentTranscriptPath(ctx.callId);
    const transcript = opts.transcripts?.(rel);
    let result: RunResult;
    try {
      result = await drain(runAgent({ prompt: request.prompt }, subagentDeps(opts, limits, model, request, ctx)), (ev) => {
        transcript?.write(ev);
        if (forwarded(ev)) opts.events.push(ev);
      });
    } finally {
      await transcript?.close();
    }
    await opts.hooks.run('SubagentStop', {
      hook_event_name: 'SubagentStop',
      cwd: ctx.root,
      subagent: { type: request.type, status: result.status },
    });
    const { status, reason, turns, usage, costUsd } = result;
    opts.events.push({
      type: 'subagent',
      id: ctx.callId,
      agentType: request.type,
      description: request.description,
      status,
      reason,
      turns,
      usage,
      costUsd,
      ...(transcript ? { transcript: rel } : {}),
    });
    return reportOf(result, request, ctx.signal.aborted);
  };
}

/** Runs a sub-agent's loop to its end, handing each event to `onEvent`. */
async function drain(gen: AsyncGenerator<RunEvent, RunResult>, onEvent: (ev: RunEvent) => void): Promise<RunResult> {
  for (;;) {
    const next = await gen.next();
    if (next.done) return next.value;
    onEvent(next.value);
  }
}

function subagentDeps(
  opts: SubagentOptions,
  limits: SubagentLimits,
  model: ModelClient,
  request: SubagentRequest,
  ctx: ToolContext,
): AgentDeps {
  const { callId: _callId, signal, fileState, ...base } = ctx;
  return {
    model,
    modelId: opts.modelId,
    toolbox: opts.toolbox,
    policy: opts.policy,
    hooks: subagentHooks(opts.hooks),
    context: subagentContext(request.type),
    toolContext: { ...base, fileState: fileState.clone() },
    budget: { maxTurns: limits.maxTurns, maxCostUsd: limits.maxCostUsd, timeoutMs: limits.timeoutMs },
    ...(opts.spend ? { spend: opts.spend } : {}),
    costOf: opts.costOf,
    maxStopBlocks: 0,
    branch: '(sub-agent: read-only)',
    signal,
    ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
    ...(opts.retryBaseMs !== undefined ? { retryBaseMs: opts.retryBaseMs } : {}),
  };
}

/** The tool result: the final report; a budget stop keeps what was found; a cancel is fatal for the parent too. */
function reportOf(result: RunResult, request: SubagentRequest, cancelled: boolean): ToolResult {
  const effects = [{ type: 'model_usage' as const, usage: result.usage, costUsd: result.costUsd, turns: result.turns }];
  const meta = { subagent: request.type, turns: result.turns, costUsd: result.costUsd, status: result.status };
  if (cancelled)
    return {
      forModel: 'Not finished: the run was cancelled or ran out of time while the sub-agent worked.',
      isError: true,
      errorKind: 'cancelled',
      effects,
      meta,
    };
  if (result.status === 'completed')
    return { forModel: result.finalText || '(the sub-agent ended without a report)', isError: false, effects, meta };
  const why = result.reason.includes(TOKEN_BUDGET_SPENT) ? 'its token budget was spent' : result.reason;
  const last = result.finalText ? `Its last message:\n${result.finalText}` : 'It wrote no report.';
  return {
    forModel: `The sub-agent "${request.description}" stopped before it finished (${why}). ${last}`,
    isError: true,
    errorKind: 'exec_failed',
    effects,
    meta,
  };
}
