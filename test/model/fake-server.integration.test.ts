import { afterEach, beforeAll, describe, expect, it, afterAll } from '@jest/globals';
import nock from 'nock';
import { createAnthropicClient } from '../../src/model/anthropic.js';
import { countTokens } from '../../src/model/count-tokens.js';
import { startFakeMessagesServer, type FakeMessagesServer } from '../fakes/fake-server.js';
import { ModelError } from '../../src/model/model-client.js';
import { silentLogger } from '../../src/log.js';
import { KEY, fixture, request } from './helpers.js';

let server: FakeMessagesServer | undefined;
const start = async (script: (body: unknown, n: number) => unknown): Promise<FakeMessagesServer> =>
  (server = await startFakeMessagesServer(script));
const clientFor = (s: FakeMessagesServer, extra: { streamIdleMs?: number } = {}) =>
  createAnthropicClient({ apiKey: KEY, baseURL: s.url, maxRetries: 1, logger: silentLogger, ...extra });

async function modelError(p: Promise<unknown>): Promise<ModelError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ModelError);
  return e as ModelError;
}

const messageStart = fixture('truncated.txt').split('\n\n')[0] + '\n\n';

describe('fake Messages server + adapter', () => {
  beforeAll(() => {
    nock.disableNetConnect();
    nock.enableNetConnect('127.0.0.1');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('fake server - streams a scripted conversation that the adapter assembles turn by turn', async () => {
    const s = await start((_body, n) =>
      n === 1
        ? {
            content: [
              { type: 'text', text: 'Running the tests now.' },
              { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test', description: 'run the suite' } },
            ],
          }
        : { content: [{ type: 'text', text: 'All green.' }], usage: { input_tokens: 900, output_tokens: 7, cache_read_input_tokens: 800 } },
    );
    const model = clientFor(s);
    const first = await model.send(request());
    expect(first.content).toEqual([
      { type: 'text', text: 'Running the tests now.' },
      { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test', description: 'run the suite' } },
    ]);
    expect(first.stopReason).toBe('tool_use');
    expect(first.requestId).toBe('req_fake_1');
    const second = await model.send(request());
    expect(second.content).toEqual([{ type: 'text', text: 'All green.' }]);
    expect(second.stopReason).toBe('end_turn');
    expect(second.usage).toEqual({ inputTokens: 900, outputTokens: 7, cacheReadTokens: 800, cacheWriteTokens: 0 });
    expect(s.requests).toHaveLength(2);
    expect(s.requests[0]).toMatchObject({
      model: 'claude-sonnet-5-5',
      stream: true,
      messages: [{ role: 'user', content: 'Fix the parser.' }],
    });
  });

  it('fake server - thinking blocks come back with their signature', async () => {
    const s = await start(() => ({
      content: [
        { type: 'thinking', thinking: 'Consider the edge case of an empty file first.', signature: 'sig_abc' },
        { type: 'text', text: 'Done.' },
      ],
    }));
    const res = await clientFor(s).send(request());
    expect(res.content[0]).toEqual({ type: 'thinking', thinking: 'Consider the edge case of an empty file first.', signature: 'sig_abc' });
  });

  it('fake server - an HTTP error reply reaches the adapter as a ModelError', async () => {
    const s = await start(() => ({
      httpStatus: 400,
      error: { type: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' },
    }));
    expect((await modelError(clientFor(s).send(request()))).kind).toBe('prompt_too_long');
  });

  it('fake server - a socket closed mid-stream is stream_broken', async () => {
    const s = await start(() => ({ rawSse: fixture('truncated.txt'), cut: true }));
    const e = await modelError(clientFor(s).send(request()));
    expect(e.kind).toBe('stream_broken');
  });

  it('fake server - aborting in the middle of a stream is aborted', async () => {
    const s = await start(() => ({ rawSse: messageStart, hold: true }));
    const ac = new AbortController();
    const p = clientFor(s).send(request({ signal: ac.signal }), () => undefined);
    setTimeout(() => ac.abort(), 50);
    expect((await modelError(p)).kind).toBe('aborted');
  });

  it('fake server - a stream that goes silent after it started is stream_broken after streamIdleMs', async () => {
    const s = await start(() => ({ rawSse: messageStart, hold: true }));
    const e = await modelError(clientFor(s, { streamIdleMs: 100 }).send(request()));
    expect(e.kind).toBe('stream_broken');
    expect(e.message).toMatch(/no event/);
  });

  it('fake server - answers a non-streaming request with the JSON message', async () => {
    const s = await start(() => ({ content: [{ type: 'text', text: 'plain' }] }));
    const res = await fetch(`${s.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'm', max_tokens: 5, messages: [] }) });
    expect(await res.json()).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'plain' }] });
  });

  it('count tokens - returns input_tokens from the count_tokens endpoint', async () => {
    const s = await start(() => ({ content: [] }));
    const n = await countTokens({ apiKey: KEY, baseURL: s.url, logger: silentLogger }, request());
    expect(n).toBeGreaterThan(10);
  });
});

// Leave no interceptor behind for the next test file in this worker (it may talk to a local server).
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});
