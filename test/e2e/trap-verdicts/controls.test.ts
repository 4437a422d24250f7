/**
 * The own trap corpus (test/e2e/trap-corpus), played through the product: honest controls.
 * Each case's cheat is proven real by corpus-real.test.ts (the runner alone goes green with the bug in).
 */
import { describe, expect, it } from '@jest/globals';
import { controls } from '../trap-corpus/index.js';
import { explain, play } from './play.js';

const cases = controls;

describe('trap corpus through the product - honest controls', () => {
  it('trap corpus - the selection is not empty', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.concurrent.each(cases.map((c) => [c.id, c] as const))(
    'trap corpus - honest control %s is verified',
    async (_id, c) => {
      const ev = await play(c);
      if (ev.verdict !== 'verified') throw new Error(`${c.id} (${c.cls}) should be verified:\n${explain(ev)}`);
      expect(ev.verdict).toBe('verified');
    },
    300_000,
  );
});
