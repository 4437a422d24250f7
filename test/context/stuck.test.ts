import { describe, it, expect } from '@jest/globals';
import { createStuckDetector } from '../../src/agent/stuck.js';
import { estimateTokens } from '../../src/agent/context/estimate.js';

describe('stuck detector', () => {
  it('stuck - nudges at the third identical call and result, aborts at the fifth', () => {
    const d = createStuckDetector();
    const call = () => d.observe('Bash', { command: 'npm test', timeout: 60 }, 'FAIL 1 test');
    expect([call(), call(), call(), call(), call()]).toEqual(['ok', 'ok', 'nudge', 'nudge', 'abort']);
  });

  it('stuck - a different result or input resets the streak; key order does not matter', () => {
    const d = createStuckDetector();
    d.observe('Read', { a: 1, b: 2 }, 'same');
    d.observe('Read', { b: 2, a: 1 }, 'same');
    expect(d.streak).toBe(2);
    expect(d.observe('Read', { a: 1, b: 2 }, 'changed')).toBe('ok');
    expect(d.streak).toBe(1);
    d.observe('Read', { a: 1, b: 3 }, 'changed');
    expect(d.streak).toBe(1);
  });
});

describe('estimate', () => {
  it('estimate - about 3.6 characters a token for text, plus overhead, and counts system and tools', () => {
    const n = estimateTokens([{ role: 'user', content: 'x'.repeat(3600) }]);
    expect(n).toBeGreaterThanOrEqual(1000);
    expect(n).toBeLessThan(1020);
    const withSystem = estimateTokens({
      system: [{ type: 'text', text: 'y'.repeat(360) }],
      tools: [{ name: 'Read', description: 'reads', input_schema: {} }],
      messages: [{ role: 'user', content: 'x'.repeat(3600) }],
    });
    expect(withSystem).toBeGreaterThan(n + 100);
  });
});
