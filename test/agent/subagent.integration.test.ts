import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAgent } from '../../src/agent/loop.js';
import { EventQueue } from '../../src/agent/events.js';
import type { HookPayload, HookRunner } from '../../src/agent/hooks/types.js';
import { createTaskTool } from '../../src/agent/subagent/task-tool.js';
import type { SubagentLimits } from '../../src/agent/subagent/run-subagent.js';
import { createScriptedModel, text, toolUse, type ScriptFn } from '../../src/model/scripted.js';
import type { ModelRequest, ToolResultBlock } from '../../src/model/model-client.js';
import { createRegistry } from '../../src/tools/registry.js';
import { readTool } from '../../src/tools/read.js';
import type { ToolDefinition } from '../../src/tools/define-tool.js';
import { buildEvidence } from '../../src/agent/evidence/evidence.js';
import { testExec } from '../tools/helpers/exec.js';
import { agentDeps, baseToolContext, collect } from './helpers.js';
import { tempDir } from '../kit/temp.js';

/** A sub-agent's requests carry its own system prompt. */
const isSub = (req: ModelRequest): boolean => req.system.some((b) => b.text.includes('read-only sub-agent'));

function lastResults(req: ModelRequest): ToolResultBlock[] {
  const last = req.messages[req.messages.length - 1]!;
  return Array.isArray(last.content) ? (last.content.filter((b) => b.type === 'tool_result') as ToolResultBlock[]) : [];
}

function recordingHooks(): HookRunner & { seen: HookPayload[] } {
  const seen: HookPayload[] = [];
  return {
    seen,
    async run(_event, payload) {
      seen.push(payload);
      return [];
    },
  };
}

async function setup(script: ScriptFn, opts: { signal?: AbortSignal; limits?: Partial<SubagentLimits> } = {}) {
  const root = tempDir('proofpr-loop-');
  execFileSync('git', ['init', '-q', root]);
  writeFileSync(join(root, 'a.txt'), 'alpha\nneedle here\n');
  writeFileSync(join(root, 'b.txt'), 'beta\n');
  const model = createScriptedModel(script);
  const events = new EventQueue();
  const hooks = recordingHooks();
  const costOf = () => 0.01;
  const task = await createTaskTool({
    model,
    modelId: 'claude-test',
    hooks,
    events,
    costOf,
    policy: { root, allow: [], deny: [] },
    ...(opts.limits ? { limits: opts.limits } : {}),
  });
  const toolbox = createRegistry([readTool, task] as ToolDefinition[]);
  const toolContext = { ...baseToolContext(root), exec: testExec };
  const deps = agentDeps({
    model,
    modelId: 'claude-test',
    toolbox,
    hooks,
    toolContext,
    budget: { maxTurns: 10, maxCostUsd: 5, timeoutMs: 60_000 },
    costOf,
    maxStopBlocks: 0,
    events,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return { root, model, hooks, deps, toolContext };
}

describe('Task sub-agent through the loop', () => {
  it('subagent - explores in its own context and only its final report reaches the parent', async () => {
    const sub: ModelRequest[] = [];
    const script: ScriptFn = (req) => {
      if (isSub(req)) {
        sub.push(structuredClone({ ...req, signal: undefined }));
        if (sub.length === 1)
          return {
            content: [toolUse('Grep', { pattern: 'needle', output_mode: 'content' }, 's1'), toolUse('Read', { file_path: 'b.txt' }, 's2')],
          };
        if (sub.length === 2) return { content: [toolUse('Bash', { command: 'touch made-by-sub' }, 's3')] };
        return { content: [text('REPORT: needle is in a.txt line 2')] };
      }
      const results = lastResults(req);
      if (results.length === 0)
        return {
          content: [
            toolUse('Read', { file_path: 'a.txt' }, 'p0'),
            toolUse('Task', { description: 'find needle', prompt: 'Where is the needle?' }, 'p1'),
          ],
        };
      return { content: [text('parent done')] };
    };
    const { model, hooks, deps, toolContext, root } = await setup(script);
    const { events, result } = await collect(runAgent({ prompt: 'PARENT PROMPT' }, deps));

    expect(result.status).toBe('completed');
    const parentRequests = model.requests.filter((r) => !isSub(r));
    expect(parentRequests).toHaveLength(2);
    const taskResult = lastResults(parentRequests[1]!).find((b) => b.tool_use_id === 'p1');
    expect(taskResult).toEqual({ type: 'tool_result', tool_use_id: 'p1', content: 'REPORT: needle is in a.txt line 2' });
    // Its own context: its first request has only the task's prompt, and its own tool subset.
    expect(sub[0]!.messages).toEqual([{ role: 'user', content: 'Where is the needle?' }]);
    expect(sub[0]!.tools.map((t) => t.name)).toEqual(['Read', 'Grep', 'Glob', 'Bash']);
    expect(JSON.stringify(sub)).not.toContain('PARENT PROMPT');
    // Read-only: its write command was refused by the plan-mode policy, and the refusal is in the parent's events.
    expect(lastResults(sub[2]!)[0]).toMatchObject({ tool_use_id: 's3', is_error: true });
    expect(events.some((e) => e.type === 'permission' && e.behavior === 'deny' && e.tool === 'Bash')).toBe(true);
    expect(() => execFileSync('test', ['-e', join(root, 'made-by-sub')])).toThrow();
    // Its read-file state is a copy: what it read is not recorded as read by the parent.
    expect(toolContext.fileState.get(join(root, 'a.txt'))?.full).toBe(true);
    expect(toolContext.fileState.get(join(root, 'b.txt'))).toBeUndefined();
    // Its cost is the run's, and the evidence stream has it; SubagentStop fired.
    const ev = events.find((e) => e.type === 'subagent');
    expect(ev).toMatchObject({ type: 'subagent', id: 'p1', agentType: 'explore', status: 'completed', turns: 3, costUsd: 0.03 });
    expect(result.costUsd).toBeCloseTo(0.05);
    const usage = buildEvidence(events, { repo: { baseSha: 'b', branch: 'x' }, filesChanged: [] }).usage;
    expect(usage.subagents).toMatchObject({ runs: 1, turns: 3, costUsd: 0.03 });
    expect(usage.turns).toBe(5);
    expect(usage.costUsd).toBeCloseTo(0.05);
    expect(hooks.seen.filter((p) => p.hook_event_name === 'SubagentStop')).toEqual([
      { hook_event_name: 'SubagentStop', cwd: root, subagent: { type: 'explore', status: 'completed' } },
    ]);
    expect(hooks.seen.filter((p) => p.hook_event_name === 'SessionStart')).toHaveLength(1);
  });

  it('subagent - cancelling the parent run cancels the sub-agent, and the parent ends aborted', async () => {
    const ctl = new AbortController();
    let subRequests = 0;
    const script: ScriptFn = (req) => {
      if (isSub(req)) {
        subRequests++;
        ctl.abort();
        return { content: [toolUse('Grep', { pattern: 'needle' }, 's1')] };
      }
      return { content: [toolUse('Task', { description: 'explore', prompt: 'look around', subagent_type: 'plan' }, 'p1')] };
    };
    const { model, deps } = await setup(script, { signal: ctl.signal });
    const { events, result } = await collect(runAgent({ prompt: 'go' }, deps));
    expect(subRequests).toBe(1);
    expect(model.requests).toHaveLength(2);
    expect(result.status).toBe('aborted');
    expect(result.reason).toBe('cancelled');
    expect(events.find((e) => e.type === 'subagent')).toMatchObject({ agentType: 'plan', status: 'aborted' });
    expect(events.find((e) => e.type === 'tool_result' && e.name === 'Task')).toMatchObject({ isError: true, errorKind: 'cancelled' });
  });

  it('subagent - its turn budget stops it; the parent gets what it found and goes on', async () => {
    let n = 0;
    const script: ScriptFn = (req) => {
      if (isSub(req)) {
        n++;
        return { content: [text(`still looking (${n})`), toolUse('Glob', { pattern: `*${n}.txt` })] };
      }
      return lastResults(req).length
        ? { content: [text('ok')] }
        : { content: [toolUse('Task', { description: 'endless', prompt: 'search forever' }, 'p1')] };
    };
    const { model, deps } = await setup(script, { limits: { maxTurns: 2 } });
    const { result } = await collect(runAgent({ prompt: 'go' }, deps));
    expect(result.status).toBe('completed');
    expect(n).toBe(2);
    const back = lastResults(model.requests[model.requests.length - 1]!)[0]!;
    expect(back.is_error).toBe(true);
    expect(back.content).toBe(
      'The sub-agent "endless" stopped before it finished (turn budget exhausted (2 turns)). Its last message:\nstill looking (2)',
    );
  });

  it('subagent - its token budget stops it before the next request', async () => {
    let n = 0;
    const script: ScriptFn = (req) => {
      if (isSub(req)) {
        n++;
        return { content: [toolUse('Glob', { pattern: '*.txt' })], usage: { inputTokens: 600, outputTokens: 10 } };
      }
      return lastResults(req).length
        ? { content: [text('ok')] }
        : { content: [toolUse('Task', { description: 'big', prompt: 'read it all' }, 'p1')] };
    };
    const { model, deps } = await setup(script, { limits: { maxTokens: 1000 } });
    await collect(runAgent({ prompt: 'go' }, deps));
    expect(n).toBe(2);
    expect(lastResults(model.requests[model.requests.length - 1]!)[0]!.content).toContain(
      'stopped before it finished (its token budget was spent)',
    );
  });

  it('subagent - two Task calls of one turn run at the same time (read-only tools run concurrently)', async () => {
    let live = 0;
    let peak = 0;
    const firstSeen: string[] = [];
    const script: ScriptFn = (req) => {
      if (isSub(req)) {
        const who = JSON.stringify(req.messages[0]!.content);
        if (req.messages.length === 1) {
          live++;
          peak = Math.max(peak, live);
          firstSeen.push(who);
          return { content: [toolUse('Bash', { command: 'sleep 0.3' })] };
        }
        live--;
        return { content: [text(`report for ${who}`)] };
      }
      return lastResults(req).length
        ? { content: [text('ok')] }
        : {
            content: [
              toolUse('Task', { description: 'one', prompt: 'first question' }, 'p1'),
              toolUse('Task', { description: 'two', prompt: 'second question' }, 'p2'),
            ],
          };
    };
    const { model, deps } = await setup(script);
    await collect(runAgent({ prompt: 'go' }, deps));
    expect(peak).toBe(2);
    expect(firstSeen.sort()).toEqual(['"first question"', '"second question"']);
    const back = lastResults(model.requests[model.requests.length - 1]!);
    expect(back.map((b) => [b.tool_use_id, b.content])).toEqual([
      ['p1', 'report for "first question"'],
      ['p2', 'report for "second question"'],
    ]);
  });
});
