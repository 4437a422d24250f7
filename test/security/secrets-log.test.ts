/** Log lines pass the one redactor: token shapes and secret env values vanish from every field, message and stack. */
import { describe, expect, it } from '@jest/globals';
import pino from 'pino';
import { redactingDestination } from '../../src/log.js';
import { REDACTED } from '../../src/secrets/index.js';
import { JWT, SHAPES } from './secrets-shapes.js';

function capture(): { lines: string[]; write(s: string): void } {
  const lines: string[] = [];
  return { lines, write: (s: string) => void lines.push(s) };
}

describe('secrets - log lines', () => {
  it('removes every token shape from fields, messages, bindings and error stacks', () => {
    const sink = capture();
    const log = pino({ base: undefined }, redactingDestination(sink)).child({ module: 'demo', remote: SHAPES['url-credentials']?.text });
    const gh = SHAPES['secretlint/github']?.text ?? '';
    log.warn({ detail: `pushed with ${gh}`, nested: { jwt: JWT } }, `message with ${SHAPES['secretlint/npm']?.text}`);
    log.error({ err: new Error(`clone failed: ${SHAPES['gitlab-token']?.text}`) }, 'boom');
    const text = sink.lines.join('');
    for (const { secret } of Object.values(SHAPES)) expect(text).not.toContain(secret);
    expect(text).toContain(REDACTED);
    for (const line of sink.lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });

  it('removes the value of a secret-named environment variable wherever it is logged', () => {
    process.env.PROOFPR_TEST_LOG_SECRET = 'value of the log secret';
    try {
      const sink = capture();
      pino({ base: undefined }, redactingDestination(sink)).info({ a: 'value of the log secret' }, 'and value of the log secret');
      expect(sink.lines.join('')).not.toContain('value of the log secret');
    } finally {
      delete process.env.PROOFPR_TEST_LOG_SECRET;
    }
  });
});
