import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import type { ModelRequest } from '../../src/model/model-client.js';

export const API = 'http://api.model.test';
export const KEY = 'sk-ant-test-key-never-log-me';

export function fixture(name: string): string {
  return readFileSync(join(process.cwd(), 'test/fixtures/sse', name), 'utf8');
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream', 'request-id': 'req_011CTestFixture' };

export function request(extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'claude-sonnet-5-5',
    system: [{ type: 'text', text: 'You are a careful engineer.', cache_control: { type: 'ephemeral' } }],
    tools: [
      {
        name: 'Read',
        description: 'Read a file',
        input_schema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
        cache_control: { type: 'ephemeral' },
      },
    ],
    messages: [{ role: 'user', content: 'Fix the parser.' }],
    maxTokens: 1024,
    ...extra,
  };
}

/** A debug-level pino logger whose output is kept in `lines`. */
export function captureLogger(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString('utf8'));
      cb();
    },
  });
  return { log: pino({ level: 'debug' }, sink), lines };
}
