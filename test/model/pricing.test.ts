import { describe, expect, it } from '@jest/globals';
import { costUsd, priceFor } from '../../src/model/pricing.js';

describe('pricing', () => {
  it('pricing - matches families by substring, dated ids and [1m] suffixes included', () => {
    expect(priceFor('claude-sonnet-4-6')).toMatchObject({ input: 3, output: 15, family: 'sonnet', known: true });
    expect(priceFor('claude-sonnet-4-5-20250929')).toMatchObject({ input: 3, output: 15 });
    expect(priceFor('claude-sonnet-5-5')).toMatchObject({ input: 2, output: 10, family: 'sonnet-5' });
    expect(priceFor('claude-opus-4-8[1m]')).toMatchObject({ input: 5, output: 25, family: 'opus' });
    expect(priceFor('claude-opus-4-1-20250805')).toMatchObject({ input: 15, output: 75 });
    expect(priceFor('claude-opus-5-5')).toMatchObject({ input: 4, output: 20 });
    expect(priceFor('claude-haiku-4-5-20251001')).toMatchObject({ input: 1, output: 5, family: 'haiku' });
    expect(priceFor('claude-3-5-haiku-20241022')).toMatchObject({ input: 0.8, output: 4 });
    expect(priceFor('CLAUDE-HAIKU-4-5')).toMatchObject({ family: 'haiku' });
  });

  it('pricing - cache writes cost 1.25x input and cache reads 0.1x input', () => {
    const p = priceFor('claude-sonnet-4-6');
    expect(p.cacheWrite).toBeCloseTo(3.75);
    expect(p.cacheRead).toBeCloseTo(0.3);
  });

  it('pricing - an unknown model is priced as Sonnet and flagged known:false', () => {
    expect(priceFor('my-local-proxy-model')).toMatchObject({ input: 3, output: 15, family: 'sonnet', known: false });
  });

  it('pricing - costUsd adds the four token kinds at their rates', () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 2_000_000, cacheWriteTokens: 400_000 };
    // 3 + 1.5 + 0.6 + 1.5
    expect(costUsd('claude-sonnet-4-6', usage)).toBeCloseTo(6.6, 6);
    expect(costUsd('claude-sonnet-4-6', { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 })).toBe(0);
  });
});
