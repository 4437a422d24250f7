import type { ToolResultBlock, ToolUseBlock } from '../model/model-client.js';
import { effectOf, runsConcurrently, type ToolContext, type ToolErrorKind, type ToolResult } from '../tools/define-tool.js';
import { describeInput } from '../tools/describe-input.js';
import type { EventQueue } from './events.js';
import type { HookRunner } from './hooks/types.js';
import type { PermissionPolicy } from './permissions/types.js';
import type { Toolbox } from './toolbox.js';
import type { Verifier } from './verification/types.js';

export interface ToolRunDeps {
  toolbox: Toolbox;
  policy: PermissionPolicy;
  hooks: HookRunner;
  verifier?: Verifier;
  /** Tool context without the per-call fields. */
  base: Omit<ToolContext, 'callId' | 'signal'>;
  signal: AbortSignal;
  events: EventQueue;
}

export interface ToolOutcome {
  block: ToolResultBlock;
  result: ToolResult;
  name: string;
  input: unknown;
}

function errorResult(text: string, errorKind: ToolErrorKind): ToolResult {
  return { forModel: text, isError: true, errorKind };
}

/** One tool call through the whole gate: validate → permission → PreToolUse → execute → verify → PostToolUse. */
async function runOne(call: ToolUseBlock, d: ToolRunDeps): Promise<ToolOutcome> {
  const { events } = d;
  const kind = d.toolbox.kindOf(call.name);
  const withKind = kind ? { kind } : {};
  events.push({ type: 'tool_call', id: call.id, name: call.name, ...withKind, input: call.input });
  const started = Date.now();
  const result = await gateAndExecute(call, d);
  const outputPath = result.outputPath;
  events.push({
    type: 'tool_result',
    id: call.id,
    name: call.name,
    ...withKind,
    isError: result.isError,
    ...(result.errorKind ? { errorKind: result.errorKind } : {}),
    preview: result.forModel.length > 2000 ? `${result.forModel.slice(0, 1000)}\n…\n${result.forModel.slice(-800)}` : result.forModel,
    durationMs: Date.now() - started,
    ...(outputPath ? { outputPath } : {}),
    ...(result.meta ? { meta: slimMeta(result.meta) } : {}),
  });
  return {
    block: {
      type: 'tool_result',
      tool_use_id: call.id,
      content: result.forModel || '(no output)',
      ...(result.isError ? { is_error: true } : {}),
    },
    result,
    name: call.name,
    input: call.input,
  };
}

/** Meta goes to the transcript; drop bulky fields (full outputs live in tool-output/). */
function slimMeta(meta: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta)) if (k !== 'output' && k !== 'content') out[k] = v;
  return out;
}

/**
 * After a Bash call: the verifier counts a test run; and a command that wrote files edited the worktree as
 * much as a Write did (the not-run list and lastEditAt read edits).
 */
async function afterCommand(
  command: string | undefined,
  handle: Awaited<ReturnType<Verifier['beforeBash']>>,
  result: ToolResult,
  startedAt: string,
  verifier: Verifier | undefined,
  events: EventQueue,
): Promise<void> {
  if (command === undefined || !verifier) return;
  if (handle) {
    const ran = effectOf(result, 'exec');
    await verifier.afterBash(handle, {
      command,
      exitCode: ran?.exitCode ?? null,
      output: result.forModel,
      startedAt: ran?.startedAt ?? startedAt,
      endedAt: ran?.endedAt ?? new Date().toISOString(),
      ...(ran?.outputPath ? { outputPath: ran.outputPath } : {}),
    });
  }
  for (const path of ((await verifier.changedByBash?.()) ?? []).slice(0, 200)) events.push({ type: 'file_changed', path });
}

async function gateAndExecute(call: ToolUseBlock, d: ToolRunDeps): Promise<ToolResult> {
  const { toolbox, policy, hooks, events, verifier, base } = d;
  const parsed = toolbox.parse(call.name, call.input);
  if (!parsed.ok) return parsed.result;
  const input = parsed.input;
  const shown = describeInput(input, 300);

  const decision = await policy.check(call.name, input).catch((e: unknown) => ({
    behavior: 'deny' as const,
    rule: 'policy-error',
    reason: `The permission check failed (${(e as Error).message}); the call was refused.`,
  }));
  events.push({
    type: 'permission',
    tool: call.name,
    input: shown,
    behavior: decision.behavior,
    rule: decision.rule,
    reason: decision.reason,
  });
  if (decision.behavior === 'deny') return errorResult(`Permission denied: ${decision.reason}`, 'denied');

  const pre = await hooks.run('PreToolUse', { hook_event_name: 'PreToolUse', cwd: base.root, tool_name: call.name, tool_input: input });
  const extra: string[] = [];
  for (const o of pre) {
    if (o.kind === 'context') extra.push(o.text);
    if (o.kind === 'block') {
      return {
        ...errorResult(`Blocked by the repository's PreToolUse hook (${o.hook}): ${o.reason}`, 'hook_blocked'),
        meta: { rule: `hook:${o.hook}`, reason: o.reason, input: shown },
      };
    }
  }

  const command = d.toolbox.access(call.name, input).command;
  const handle = command !== undefined && verifier ? await verifier.beforeBash(command) : undefined;
  const startedAt = new Date().toISOString();
  let result: ToolResult;
  try {
    const extendEnv = handle?.extendEnv;
    const exec: typeof base.exec = extendEnv ? (req) => base.exec({ ...req, extendEnv }) : base.exec;
    result = await toolbox.execute(call.name, input, { ...base, exec, callId: call.id, signal: d.signal });
  } catch (e) {
    result = errorResult(`${call.name} failed inside the harness: ${(e as Error).message}`, 'internal');
  }
  policy.executed?.(call.name, input);
  await afterCommand(command, handle, result, startedAt, verifier, events);
  if (!result.isError) {
    for (const e of result.effects ?? []) {
      if (e.type === 'file_changed') {
        events.push({ type: 'file_changed', path: e.path });
        verifier?.edited?.();
      }
      if (e.type === 'todos') events.push({ type: 'todo', todos: e.todos });
    }
    const post = await hooks.run('PostToolUse', {
      hook_event_name: 'PostToolUse',
      cwd: base.root,
      tool_name: call.name,
      tool_input: input,
      tool_response: { output: result.forModel, is_error: result.isError },
    });
    for (const o of post) {
      if (o.kind === 'context') extra.push(o.text);
      if (o.kind === 'block') {
        extra.push(`The repository's PostToolUse hook (${o.hook}) reported a problem: ${o.reason}`);
      }
    }
  }
  if (extra.length) result = { ...result, forModel: `${result.forModel}\n\n${extra.join('\n')}` };
  return result;
}

/**
 * Runs the tool calls of one assistant turn. Consecutive read-only calls run concurrently; any other call
 * runs alone, in order. Results come back in the order of the calls.
 */
export async function runTools(calls: ToolUseBlock[], d: ToolRunDeps): Promise<ToolOutcome[]> {
  const out: ToolOutcome[] = [];
  let i = 0;
  while (i < calls.length) {
    const first = calls[i]!;
    if (d.signal.aborted) {
      out.push(cancelled(first));
      i++;
      continue;
    }
    const concurrent = (c: ToolUseBlock) => runsConcurrently(d.toolbox.kindOf(c.name) ?? 'execute');
    if (!concurrent(first)) {
      out.push(await runOne(first, d));
      i++;
      continue;
    }
    let j = i;
    while (j < calls.length && concurrent(calls[j]!)) j++;
    out.push(...(await Promise.all(calls.slice(i, j).map((c) => runOne(c, d)))));
    i = j;
  }
  return out;
}

function cancelled(call: ToolUseBlock): ToolOutcome {
  const result = errorResult('Not run: the run was cancelled or ran out of time.', 'cancelled');
  return {
    block: { type: 'tool_result', tool_use_id: call.id, content: result.forModel, is_error: true },
    result,
    name: call.name,
    input: call.input,
  };
}
