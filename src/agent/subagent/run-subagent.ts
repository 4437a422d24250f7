import type { ModelClient, Usage } from '../../model/model-client.js';
import type { ToolContext, ToolResult } from '../../tools/define-tool.js';
import type { SubagentRequest, SubagentRunner } from '../../tools/task.js';
import type { EventQueue, RunEvent } from '../events.js';
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
  maxTokens?: number;
  retryBaseMs?: number;
}

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
  const limits = { ...SUBAGENT_LIMITS, ...opts.limits };
  return async (request, ctx) => {
    const model = tokenBudget(opts.model, limits.maxTokens);
    const gen = runAgent({ prompt: request.prompt }, subagentDeps(opts, limits, model, request, ctx));
    let next = await gen.next();
    while (!next.done) {
      if (forwarded(next.value)) opts.events.push(next.value);
      next = await gen.next();
    }
    const result = next.value;
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
    });
    return reportOf(result, request, ctx.signal.aborted);
  };
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
