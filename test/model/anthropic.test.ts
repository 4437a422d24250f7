import { afterEach, beforeAll, describe, expect, it, afterAll } from '@jest/globals';
import nock from 'nock';
import { createAnthropicClient } from '../../src/model/anthropic.js';
import { ModelError, type StreamDelta } from '../../src/model/model-client.js';
import { silentLogger } from '../../src/log.js';
import { API, KEY, SSE_HEADERS, captureLogger, fixture, request } from './helpers.js';

const client = (maxRetries = 2) => createAnthropicClient({ apiKey: KEY, baseURL: API, maxRetries, logger: silentLogger });

async function modelError(p: Promise<unknown>): Promise<ModelError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ModelError);
    return e as ModelError;
  }
  throw new Error('expected a ModelError');
}

/** An error answer of the Messages API. */
const apiError = (type: string, message: string) => ({ type: 'error', error: { type, message } });
const overloaded = apiError('overloaded_error', 'Overloaded');

describe('anthropic adapter (nock)', () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => {
    nock.abortPendingRequests();
    nock.cleanAll();
  });

  it('anthropic - assembles a streamed text answer with usage and request id', async () => {
    let body: Record<string, unknown> = {};
    const scope = nock(API)
      .post('/v1/messages', (b: Record<string, unknown>) => ((body = b), true))
      .reply(200, fixture('text.txt'), SSE_HEADERS);
    const deltas: StreamDelta[] = [];
    const res = await client().send(request(), (d) => deltas.push(d));
    expect(res.content).toEqual([{ type: 'text', text: 'The failing test expects a trailing newline.' }]);
    expect(res.stopReason).toBe('end_turn');
    expect(res.usage).toEqual({ inputTokens: 1523, outputTokens: 12, cacheReadTokens: 4096, cacheWriteTokens: 0 });
    expect(res.model).toBe('claude-sonnet-5-5');
    expect(res.requestId).toBe('req_011CTestFixture');
    expect(deltas).toEqual([
      { type: 'text', text: 'The failing test' },
      { type: 'text', text: ' expects a trailing newline.' },
    ]);
    expect(scope.isDone()).toBe(true);
    expect(body).toMatchObject({ model: 'claude-sonnet-5-5', max_tokens: 1024, stream: true });
    expect(body.system).toEqual(request().system);
    expect(body.tools).toEqual(request().tools);
    expect(body.messages).toEqual(request().messages);
  });

  it('anthropic - rebuilds tool_use input split across input_json_delta chunks and keeps thinking with its signature', async () => {
    nock(API).post('/v1/messages').reply(200, fixture('tool-use.txt'), SSE_HEADERS);
    const deltas: StreamDelta[] = [];
    const res = await client().send(request(), (d) => deltas.push(d));
    expect(res.content).toEqual([
      {
        type: 'thinking',
        thinking: 'I should look at the parser before editing it.',
        signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxDYHQ8thnvFfnh0gAiMPbZ',
      },
      { type: 'text', text: 'Let me read the parser.' },
      { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'Read', input: { file_path: 'src/parser.ts', offset: 10, limit: 50 } },
    ]);
    expect(res.stopReason).toBe('tool_use');
    expect(res.usage).toEqual({ inputTokens: 2210, outputTokens: 89, cacheReadTokens: 0, cacheWriteTokens: 1800 });
    expect(deltas).toContainEqual({ type: 'tool_use_start', name: 'Read', id: 'toolu_01A09q90qw90lq917835lq9' });
  });

  it('anthropic - passes user content blocks, tool results and cache_control through unchanged', async () => {
    let body: Record<string, unknown> = {};
    nock(API)
      .post('/v1/messages', (b: Record<string, unknown>) => ((body = b), true))
      .reply(200, fixture('text.txt'), SSE_HEADERS);
    const messages = [
      { role: 'user' as const, content: 'Fix it.' },
      { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'toolu_1', name: 'Read', input: { file_path: 'a.ts' } }] },
      {
        role: 'user' as const,
        content: [
          {
            type: 'tool_result' as const,
            tool_use_id: 'toolu_1',
            content: '1\tx',
            is_error: false,
            cache_control: { type: 'ephemeral' as const },
          },
        ],
      },
    ];
    await client().send(request({ messages }));
    expect(body.messages).toEqual(messages);
  });

  it('anthropic - a 529 overloaded answer is retried by the SDK, then succeeds', async () => {
    const scope = nock(API)
      .post('/v1/messages')
      .reply(529, overloaded, { 'retry-after-ms': '1' })
      .post('/v1/messages')
      .reply(200, fixture('text.txt'), SSE_HEADERS);
    const res = await client().send(request());
    expect(res.stopReason).toBe('end_turn');
    expect(scope.isDone()).toBe(true);
  });

  it('anthropic - a 429 is retried after the delay the server asks for, then succeeds', async () => {
    const rateLimited = apiError('rate_limit_error', 'Number of request tokens has exceeded your rate limit');
    const scope = nock(API)
      .post('/v1/messages')
      .reply(429, rateLimited, { 'retry-after': '0', 'retry-after-ms': '30' })
      .post('/v1/messages')
      .reply(200, fixture('text.txt'), SSE_HEADERS);
    const t0 = Date.now();
    const res = await client().send(request());
    expect(Date.now() - t0).toBeGreaterThanOrEqual(25);
    expect(res.content).toHaveLength(1);
    expect(scope.isDone()).toBe(true);
  });

  it('anthropic - a 500 that never clears is fatal once the SDK retries are spent', async () => {
    const err500 = apiError('api_error', 'Internal server error');
    const scope = nock(API).post('/v1/messages').times(3).reply(500, err500, { 'retry-after-ms': '1', 'request-id': 'req_500' });
    const e = await modelError(client(2).send(request()));
    expect(e.kind).toBe('fatal');
    expect(e.status).toBe(500);
    expect(e.message).toContain('Internal server error');
    expect(e.message).toContain('req_500');
    expect(scope.isDone()).toBe(true);
  });

  it('anthropic - a 400 "prompt is too long" is prompt_too_long and is not retried', async () => {
    const tooLong = apiError('invalid_request_error', 'prompt is too long: 208131 tokens > 200000 maximum');
    const scope = nock(API).post('/v1/messages').once().reply(400, tooLong);
    const e = await modelError(client().send(request()));
    expect(e.kind).toBe('prompt_too_long');
    expect(e.status).toBe(400);
    expect(scope.isDone()).toBe(true);
  });

  it('anthropic - "input length and max_tokens exceed context limit" is prompt_too_long too', async () => {
    const msg =
      'input length and `max_tokens` exceed context limit: 197626 + 8192 > 200000, decrease input length or `max_tokens` and try again';
    nock(API).post('/v1/messages').reply(400, apiError('invalid_request_error', msg));
    expect((await modelError(client().send(request()))).kind).toBe('prompt_too_long');
  });

  it('anthropic - any other 400 is fatal with the API message', async () => {
    nock(API).post('/v1/messages').reply(400, apiError('invalid_request_error', 'tools.0.name: String should match pattern'));
    const e = await modelError(client().send(request()));
    expect(e.kind).toBe('fatal');
    expect(e.message).toContain('tools.0.name');
  });

  it('anthropic - a 401 is fatal, names the variable to check, and never shows the key', async () => {
    nock(API).post('/v1/messages').reply(401, apiError('authentication_error', 'invalid x-api-key'));
    const e = await modelError(client().send(request()));
    expect(e.kind).toBe('fatal');
    expect(e.status).toBe(401);
    expect(e.message).toContain('ANTHROPIC_API_KEY');
    expect(e.message).not.toContain(KEY);
  });

  it('anthropic - an error event after message_start is stream_broken', async () => {
    nock(API).post('/v1/messages').reply(200, fixture('error-mid-stream.txt'), SSE_HEADERS);
    const e = await modelError(client().send(request()));
    expect(e.kind).toBe('stream_broken');
    expect(e.message).toContain('overloaded_error');
  });

  it('anthropic - a stream that ends before message_stop is stream_broken', async () => {
    nock(API).post('/v1/messages').reply(200, fixture('truncated.txt'), SSE_HEADERS);
    const e = await modelError(client().send(request()));
    expect(e.kind).toBe('stream_broken');
    expect(e.message).toContain('message_stop');
  });

  it('anthropic - aborting while waiting for the response is aborted', async () => {
    nock(API).post('/v1/messages').delay(1000).reply(200, fixture('text.txt'), SSE_HEADERS);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 20);
    const e = await modelError(client().send(request({ signal: ac.signal })));
    expect(e.kind).toBe('aborted');
  });

  it('anthropic - an already aborted signal sends nothing', async () => {
    const scope = nock(API).post('/v1/messages').reply(200, fixture('text.txt'), SSE_HEADERS);
    const ac = new AbortController();
    ac.abort();
    expect((await modelError(client().send(request({ signal: ac.signal })))).kind).toBe('aborted');
    expect(scope.isDone()).toBe(false);
  });

  it('anthropic - honours ANTHROPIC_BASE_URL when no baseURL is given', async () => {
    const saved = process.env.ANTHROPIC_BASE_URL;
    process.env.ANTHROPIC_BASE_URL = 'http://proxy.model.test';
    try {
      const scope = nock('http://proxy.model.test').post('/v1/messages').reply(200, fixture('text.txt'), SSE_HEADERS);
      await createAnthropicClient({ apiKey: KEY, logger: silentLogger }).send(request());
      expect(scope.isDone()).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_BASE_URL;
      else process.env.ANTHROPIC_BASE_URL = saved;
    }
  });

  it('anthropic - sends the key as the bearer credential and never writes it to the log', async () => {
    const scope = nock(API).matchHeader('authorization', `Bearer ${KEY}`).post('/v1/messages').reply(200, fixture('text.txt'), SSE_HEADERS);
    const { log, lines } = captureLogger();
    await createAnthropicClient({ apiKey: KEY, baseURL: API, logger: log }).send(request());
    nock(API).post('/v1/messages').reply(401, apiError('authentication_error', 'invalid x-api-key'));
    await createAnthropicClient({ apiKey: KEY, baseURL: API, logger: log })
      .send(request())
      .catch(() => undefined);
    expect(scope.isDone()).toBe(true);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it('anthropic - refuses an empty API key with the variable to set', () => {
    expect(() => createAnthropicClient({ apiKey: '' })).toThrow(/ANTHROPIC_API_KEY/);
  });
});

// Leave no interceptor behind for the next test file in this worker (it may talk to a local server).
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});
