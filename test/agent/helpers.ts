import type { ContextManager } from '../../src/agent/context/types.js';
import type { Toolbox } from '../../src/agent/toolbox.js';
import type { Message } from '../../src/model/model-client.js';
import { NO_ACCESS, type ToolResult } from '../../src/tools/define-tool.js';
import { FileState } from '../../src/tools/file-state.js';
import { silentLogger } from '../../src/log.js';
import type { RunEvent } from '../../src/agent/events.js';
import type { RunResult } from '../../src/agent/loop.js';
import type { AgentDeps } from '../../src/agent/loop.js';
import { allowAllPolicy, noHooks } from '../fakes/agent-stubs.js';

/** A context manager that sends history as is; compaction clears the oldest tool results. */
export function plainContext(overrides: Partial<ContextManager> = {}): ContextManager {
  const estimate = (m: Message[]) => Math.ceil(JSON.stringify(m).length / 4);
  return {
    system: () => [{ type: 'text', text: 'You are a test agent.' }],
    tools: (s) => s,
    prepare: (m) => m.map((x) => structuredClone(x)),
    maybeCompact: async () => undefined,
    forceCompact: async (messages) => {
      const before = estimate(messages);
      const out = messages.map((m) =>
        m.role === 'user' && Array.isArray(m.content)
          ? { ...m, content: m.content.map((b) => (b.type === 'tool_result' ? { ...b, content: '[cleared]' } : b)) }
          : m,
      ) as Message[];
      return { messages: out, kind: 'clear', beforeTokens: before, afterTokens: estimate(out), ok: true };
    },
    estimateTokens: estimate,
    ...overrides,
  };
}

type Impl = (input: Record<string, unknown>) => Promise<ToolResult> | ToolResult;

/** A stub toolbox: tools are name → implementation; names in readOnly are `read` tools (run concurrently), the others `edit`. */
export function stubToolbox(impls: Record<string, Impl>, readOnly: string[] = []): Toolbox {
  return {
    schemas: () =>
      Object.keys(impls)
        .sort()
        .map((name) => ({ name, description: name, input_schema: { type: 'object' } })),
    kindOf: (n) => (readOnly.includes(n) ? 'read' : impls[n] ? 'edit' : undefined),
    access: () => NO_ACCESS,
    parse: (name, raw) =>
      impls[name]
        ? { ok: true, input: raw }
        : {
            ok: false,
            result: {
              forModel: `Unknown tool "${name}". Valid tools: ${Object.keys(impls).join(', ')}`,
              isError: true,
              errorKind: 'unknown_tool',
            },
          },
    execute: async (name, input) => impls[name]!(input as Record<string, unknown>),
  };
}

export function baseToolContext(root: string) {
  return {
    root,
    runDir: root,
    fileState: new FileState(),
    exec: async () => {
      throw new Error('no exec in this test');
    },
    logger: silentLogger,
  };
}

/** Drain a run: all events and the final result. */
export async function collect(gen: AsyncGenerator<RunEvent, RunResult>): Promise<{ events: RunEvent[]; result: RunResult }> {
  const events: RunEvent[] = [];
  for (;;) {
    const n = await gen.next();
    if (n.done) return { events, result: n.value };
    events.push(n.value);
  }
}

/**
 * The agent loop's dependencies as the loop tests use them: `deps` brings the model, the tools and their
 * context, and overrides any default (the allow-all policy, no hooks, the plain context, 20 turns at a
 * cent each, 3 stop blocks, no retry backoff).
 */
export function agentDeps(deps: Pick<AgentDeps, 'model' | 'toolbox' | 'toolContext'> & Partial<AgentDeps>): AgentDeps {
  return {
    modelId: 'claude-sonnet-5-5',
    policy: allowAllPolicy,
    hooks: noHooks,
    context: plainContext(),
    budget: { maxTurns: 20, maxCostUsd: 5, timeoutMs: 60_000 },
    costOf: () => 0.01,
    maxStopBlocks: 3,
    branch: 'proofpr/1-test',
    retryBaseMs: 0,
    ...deps,
  };
}
