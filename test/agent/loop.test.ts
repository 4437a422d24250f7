import { describe, expect, it } from '@jest/globals';
import { runAgent, type AgentDeps } from '../../src/agent/loop.js';
import type { Verifier } from '../../src/agent/verification/types.js';
import { createScriptedModel, text, toolUse, type ScriptStep } from '../../src/model/scripted.js';
import type { Toolbox } from '../../src/agent/toolbox.js';
import type { ToolResultBlock } from '../../src/model/model-client.js';
import { agentDeps, baseToolContext, collect, plainContext, stubToolbox } from './helpers.js';
import { tempDir } from '../kit/temp.js';

function deps(script: ScriptStep[], toolbox: Toolbox, over: Partial<AgentDeps> = {}) {
  const model = createScriptedModel(script);
  const d = agentDeps({ model, toolbox, toolContext: baseToolContext(tempDir('proofpr-loop-')), ...over });
  return { d, model };
}

const echo = stubToolbox({ Echo: (i) => ({ forModel: `echo:${String(i.say)}`, isError: false }) });

function toolResults(req: { messages: { role: string; content: unknown }[] }): ToolResultBlock[] {
  const last = req.messages[req.messages.length - 1]!;
  return (last.content as ToolResultBlock[]).filter((b) => b.type === 'tool_result');
}

describe('agent loop', () => {
  it('loop - a tool round trip sends the result back and ends when the model stops calling tools', async () => {
    const { d, model } = deps([{ content: [toolUse('Echo', { say: 'hi' }, 't1')] }, { content: [text('done')] }], echo);
    const { events, result } = await collect(runAgent({ prompt: 'go' }, d));
    expect(result.status).toBe('completed');
    expect(result.turns).toBe(2);
    expect(toolResults(model.requests[1]!)).toEqual([{ type: 'tool_result', tool_use_id: 't1', content: 'echo:hi' }]);
    const types = events.map((e) => e.type);
    expect(types).toEqual(['request', 'assistant', 'tool_call', 'permission', 'tool_result', 'request', 'assistant']);
    expect(result.finalText).toBe('done');
  });

  it('loop - read-only calls of one turn run concurrently, others in order', async () => {
    let live = 0;
    let peak = 0;
    const order: string[] = [];
    const slow = async (name: string) => {
      live++;
      peak = Math.max(peak, live);
      await new Promise((r) => setTimeout(r, 40));
      live--;
      order.push(name);
      return { forModel: name, isError: false };
    };
    const tb = stubToolbox({ Read: () => slow('Read'), Grep: () => slow('Grep'), Edit: () => slow('Edit') }, ['Read', 'Grep']);
    const { d, model } = deps(
      [
        { content: [toolUse('Read', {}, 'a'), toolUse('Grep', {}, 'b'), toolUse('Read', {}, 'c'), toolUse('Edit', {}, 'd')] },
        { content: [text('ok')] },
      ],
      tb,
    );
    await collect(runAgent({ prompt: 'go' }, d));
    expect(peak).toBe(3);
    expect(order[3]).toBe('Edit');
    expect(toolResults(model.requests[1]!).map((b) => b.tool_use_id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('loop - max_tokens continues the same conversation, dropping the cut tool call', async () => {
    const { d, model } = deps(
      [{ content: [text('part one'), toolUse('Echo', { say: 'x' })], stopReason: 'max_tokens' }, { content: [text('part two')] }],
      echo,
    );
    const { result } = await collect(runAgent({ prompt: 'go' }, d));
    expect(result.status).toBe('completed');
    const second = model.requests[1]!;
    expect(second.messages).toHaveLength(3);
    expect(second.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'part one' }] });
    expect(String(second.messages[2]!.content)).toMatch(/Continue exactly where you stopped/);
  });

  it('loop - max_tokens more than 3 times in a row ends aborted', async () => {
    const cut = { content: [text('…')], stopReason: 'max_tokens' as const };
    const { d } = deps([cut, cut, cut, cut, cut], echo);
    const { result } = await collect(runAgent({ prompt: 'go' }, d));
    expect(result.status).toBe('aborted');
    expect(result.reason).toMatch(/output limit 4 times/);
  });

  it('loop - prompt-too-long compacts and retries the turn', async () => {
    const { d, model } = deps(
      [
        { content: [toolUse('Echo', { say: 'big' }, 't1')] },
        { error: 'prompt_too_long', message: 'prompt is too long' },
        { content: [text('fine')] },
      ],
      echo,
    );
    const { events, result } = await collect(runAgent({ prompt: 'go' }, d));
    expect(result.status).toBe('completed');
    expect(events.some((e) => e.type === 'compaction' && e.ok)).toBe(true);
    expect(toolResults(model.requests[2]!)[0]!.content).toBe('[cleared]');
  });

  it('loop - prompt-too-long that keeps coming ends aborted after 3 compactions', async () => {
    const ptl = { error: 'prompt_too_long' as const, message: 'prompt is too long' };
    const { d } = deps([ptl, ptl, ptl, ptl, ptl], echo);
    const { result } = await collect(runAgent({ prompt: 'go' }, d));
    expect(result.status).toBe('aborted');
    expect(result.reason).toMatch(/too long/);
  });

  it('loop - three failed compactions in a row end the run aborted (thrash breaker)', async () => {
    const again = { content: [toolUse('Echo', { say: 'again' })] };
    const failing = plainContext({
      maybeCompact: async (m) => ({
        messages: m,
        kind: 'summary',
        beforeTokens: 9000,
        afterTokens: 9000,
        ok: false,
        detail: 'the summary request failed',
      }),
    });
    const { d } = deps([again, again, again, again], echo, { context: failing });
    const { events, result } = await collect(runAgent({ prompt: 'go' }, d));
    expect(result.status).toBe('aborted');
    expect(result.reason).toMatch(/compaction failed 3 times in a row/);
    expect(events.filter((e) => e.type === 'compaction' && !e.ok)).toHaveLength(3);
  });

  it('loop - a successful compaction replaces the history and the next request is smaller', async () => {
    let calls = 0;
    const shrinking = plainContext({
      maybeCompact: async (m) => {
        calls++;
        if (calls !== 3) return undefined;
        const kept = [m[0]!];
        return { messages: kept, kind: 'summary', beforeTokens: 500, afterTokens: 10, ok: true };
      },
    });
    const again = { content: [toolUse('Echo', { say: 'x'.repeat(400) })] };
    const { d, model } = deps([again, again, { content: [text('done')] }], echo, { context: shrinking });
    const { result } = await collect(runAgent({ prompt: 'go' }, d));
    expect(result).toMatchObject({ status: 'completed', compactions: 1 });
    expect(JSON.stringify(model.requests[2]!.messages).length).toBeLessThan(JSON.stringify(model.requests[1]!.messages).length);
  });

  it('loop - a broken stream is retried as a whole turn', async () => {
    const { d } = deps([{ error: 'stream_broken', message: 'socket closed' }, { content: [text('ok')] }], echo);
    const { events, result } = await collect(runAgent({ prompt: 'go' }, d));
    expect(result.status).toBe('completed');
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
  });

  it('loop - a fatal model error ends aborted with the API message', async () => {
    const { d } = deps([{ error: 'fatal', message: '500 internal server error' }], echo);
    const { result } = await collect(runAgent({ prompt: 'go' }, d));
    expect(result.status).toBe('aborted');
    expect(result.reason).toContain('500 internal server error');
  });

  it('loop - the turn budget ends the run aborted', async () => {
    const again = { content: [toolUse('Echo', { say: 'again' })] };
    const { d } = deps([again, again, again, again], echo, { budget: { maxTurns: 3, maxCostUsd: 5, timeoutMs: 60_000 } });
    const { result } = await collect(runAgent({ prompt: 'go' }, d));
    expect(result).toMatchObject({ status: 'aborted', turns: 3 });
    expect(result.reason).toMatch(/turn budget/);
  });

  it('loop - the cost budget ends the run aborted', async () => {
    const again = { content: [toolUse('Echo', { say: 'again' })] };
    const { d } = deps([again, again, again], echo, { costOf: () => 0.6, budget: { maxTurns: 20, maxCostUsd: 1, timeoutMs: 60_000 } });
    const { result } = await collect(runAgent({ prompt: 'go' }, d));
    expect(result.status).toBe('aborted');
    expect(result.reason).toMatch(/cost budget/);
    expect(result.turns).toBe(2);
  });

  it('loop - the time budget ends the run aborted', async () => {
    const tb = stubToolbox({ Wait: () => new Promise((r) => setTimeout(() => r({ forModel: 'waited', isError: false }), 120)) });
    const wait = { content: [toolUse('Wait', {})] };
    const { d } = deps([wait, wait, wait], tb, { budget: { maxTurns: 20, maxCostUsd: 5, timeoutMs: 100 } });
    const { result } = await collect(runAgent({ prompt: 'go' }, d));
    expect(result.status).toBe('aborted');
    expect(result.reason).toMatch(/time budget/);
  });

  it('loop - cancel through the AbortSignal ends the run aborted', async () => {
    const ctl = new AbortController();
    const tb = stubToolbox({ Cancel: () => (ctl.abort(), { forModel: 'bye', isError: false }) });
    const { d } = deps([{ content: [toolUse('Cancel', {})] }, { content: [text('never')] }], tb, { signal: ctl.signal });
    const { result } = await collect(runAgent({ prompt: 'go' }, d));
    expect(result).toMatchObject({ status: 'aborted', reason: 'cancelled', turns: 1 });
  });

  it('loop - a thrown tool error becomes an is_error result and the run goes on', async () => {
    const tb = stubToolbox({
      Boom: () => {
        throw new Error('disk on fire');
      },
    });
    const { d, model } = deps([{ content: [toolUse('Boom', {}, 'b1')] }, { content: [text('recovered')] }], tb);
    const { result } = await collect(runAgent({ prompt: 'go' }, d));
    expect(result.status).toBe('completed');
    expect(toolResults(model.requests[1]!)[0]).toMatchObject({ is_error: true, content: expect.stringContaining('disk on fire') });
  });

  it('loop - an unknown tool gets the list of valid names', async () => {
    const { d, model } = deps([{ content: [toolUse('Nope', {}, 'n1')] }, { content: [text('ok')] }], echo);
    await collect(runAgent({ prompt: 'go' }, d));
    expect(toolResults(model.requests[1]!)[0]).toMatchObject({ is_error: true, content: expect.stringContaining('Valid tools: Echo') });
  });

  it('loop - a denied call is an is_error result naming the reason, and nothing runs', async () => {
    let ran = false;
    const tb = stubToolbox({ Bash: () => ((ran = true), { forModel: 'ran', isError: false }) });
    const policy = {
      check: async () => ({ behavior: 'deny' as const, rule: 'builtin-deny:Bash(curl:*)', reason: 'network clients are not allowed' }),
    };
    const { d, model } = deps([{ content: [toolUse('Bash', { command: 'curl x' }, 'c1')] }, { content: [text('ok')] }], tb, { policy });
    const { events } = await collect(runAgent({ prompt: 'go' }, d));
    expect(ran).toBe(false);
    expect(toolResults(model.requests[1]!)[0]!.content).toBe('Permission denied: network clients are not allowed');
    expect(events.find((e) => e.type === 'permission')).toMatchObject({
      behavior: 'deny',
      input: 'curl x',
      rule: 'builtin-deny:Bash(curl:*)',
    });
  });

  it('loop - failing Stop gates send the model back, then a pass runs the final check', async () => {
    let evaluations = 0;
    const verifier: Verifier = {
      beforeBash: async () => undefined,
      afterBash: async () => {
        throw new Error('unused');
      },
      evaluate: async () => {
        evaluations++;
        const ok = evaluations > 1;
        return {
          ok,
          gates: [{ name: 'tests-ran', passed: ok, detail: ok ? '3 tests' : 'no test run' }],
          message: 'Gate tests-ran failed: run npm test.',
        };
      },
      finalCheck: async () => ({ ok: true, gates: [{ name: 'tests-ran', passed: true, detail: 'final run: 3 tests' }], message: '' }),
    };
    const { d, model } = deps([{ content: [text('done!')] }, { content: [text('really done')] }], echo, { verifier });
    const { result } = await collect(runAgent({ prompt: 'go' }, d));
    expect(result.status).toBe('completed');
    expect(model.requests[1]!.messages[2]).toEqual({ role: 'user', content: 'Gate tests-ran failed: run npm test.' });
    expect(result.gates[0]!.detail).toBe('final run: 3 tests');
  });

  it('loop - gates failing more than max_stop_blocks times end unverified', async () => {
    const verifier: Verifier = {
      beforeBash: async () => undefined,
      afterBash: async () => {
        throw new Error('unused');
      },
      evaluate: async () => ({
        ok: false,
        gates: [{ name: 'tests-fresh', passed: false, detail: 'stale' }],
        message: 'run the tests again',
      }),
      finalCheck: async () => {
        throw new Error('must not run');
      },
    };
    const done = { content: [text('done')] };
    const { d } = deps([done, done, done], echo, { verifier, maxStopBlocks: 2 });
    const { result } = await collect(runAgent({ prompt: 'go' }, d));
    expect(result.status).toBe('unverified');
    expect(result.reason).toMatch(/tests-fresh/);
  });
});
