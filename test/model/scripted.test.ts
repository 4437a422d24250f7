import { describe, expect, it } from '@jest/globals';
import { ModelError, type ModelRequest, type StreamDelta } from '../../src/model/model-client.js';
import { createScriptedModel, text, toolUse } from '../../src/model/scripted.js';
import { request } from './helpers.js';

describe('scripted model', () => {
  it('scripted - answers steps in order, defaulting stopReason from the content', async () => {
    const m = createScriptedModel([
      { content: [text('Reading.'), toolUse('Read', { file_path: 'a.ts' }, 'toolu_a')] },
      { content: [text('Done.')] },
    ]);
    const r1 = await m.send(request());
    expect(r1.stopReason).toBe('tool_use');
    expect(r1.content[1]).toEqual({ type: 'tool_use', id: 'toolu_a', name: 'Read', input: { file_path: 'a.ts' } });
    expect(r1.model).toBe('claude-sonnet-5-5');
    const r2 = await m.send(request());
    expect(r2.stopReason).toBe('end_turn');
    expect(m.remaining()).toBe(0);
  });

  it('scripted - keeps an explicit stopReason and usage, estimating the rest', async () => {
    const m = createScriptedModel([{ content: [text('cut')], stopReason: 'max_tokens', usage: { outputTokens: 4096 } }]);
    const r = await m.send(request());
    expect(r.stopReason).toBe('max_tokens');
    expect(r.usage.outputTokens).toBe(4096);
    expect(r.usage.inputTokens).toBeGreaterThan(10);
    expect(r.usage.cacheReadTokens).toBe(0);
  });

  it('scripted - an error step is thrown as a ModelError of that kind', async () => {
    const m = createScriptedModel([{ error: 'prompt_too_long', message: 'too long', status: 400 }]);
    const e = await m.send(request()).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ModelError);
    expect(e).toMatchObject({ kind: 'prompt_too_long', message: 'too long', status: 400 });
  });

  it('scripted - says which turn had no step when the script runs out', async () => {
    const m = createScriptedModel([{ content: [text('only one')] }]);
    await m.send(request());
    await expect(m.send(request())).rejects.toThrow('scripted model: no step for turn 2');
  });

  it('scripted - records deep copies of every request, without the signal', async () => {
    const m = createScriptedModel([{ content: [text('a')] }, { content: [text('b')] }]);
    const req = request({ signal: new AbortController().signal });
    await m.send(req);
    req.messages.push({ role: 'assistant', content: [text('a')] });
    await m.send(req);
    expect(m.requests).toHaveLength(2);
    expect(m.requests[0]!.messages).toHaveLength(1);
    expect(m.requests[1]!.messages).toHaveLength(2);
    expect(m.requests[0]).not.toHaveProperty('signal');
    expect(m.requests[0]!.system[0]).toEqual({ type: 'text', text: 'You are a careful engineer.', cache_control: { type: 'ephemeral' } });
  });

  it('scripted - a function script sees each request and its turn number from 1', async () => {
    const seen: number[] = [];
    const m = createScriptedModel((req: ModelRequest, turn: number) => {
      seen.push(turn);
      return { content: [text(`turn ${turn} saw ${req.messages.length} messages`)] };
    });
    const r = await m.send(request());
    await m.send(request());
    expect(seen).toEqual([1, 2]);
    expect(r.content[0]).toEqual({ type: 'text', text: 'turn 1 saw 1 messages' });
  });

  it('scripted - returned content is a copy, so callers cannot change the script', async () => {
    const step = { content: [text('stable')] };
    const m = createScriptedModel(() => step);
    const r = await m.send(request());
    (r.content[0] as { text: string }).text = 'changed';
    expect(step.content[0]!.text).toBe('stable');
  });

  it('scripted - reports text and tool starts to onDelta', async () => {
    const m = createScriptedModel([{ content: [text('hi'), toolUse('Bash', { command: 'ls' }, 'toolu_b')] }]);
    const deltas: StreamDelta[] = [];
    await m.send(request(), (d) => deltas.push(d));
    expect(deltas).toEqual([
      { type: 'text', text: 'hi' },
      { type: 'tool_use_start', name: 'Bash', id: 'toolu_b' },
    ]);
  });

  it('scripted - an aborted signal is aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(createScriptedModel([{ content: [text('x')] }]).send(request({ signal: ac.signal }))).rejects.toMatchObject({
      kind: 'aborted',
    });
  });

  it('scripted - toolUse makes distinct ids when none is given', () => {
    expect(toolUse('Read', {}).id).not.toBe(toolUse('Read', {}).id);
  });
});
