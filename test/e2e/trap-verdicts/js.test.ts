/**
 * The own trap corpus (test/e2e/trap-corpus), played through the product: JavaScript traps (jest, vitest, mocha, node:test).
 * Each case's cheat is proven real by corpus-real.test.ts (the runner alone goes green with the bug in).
 */
import { describe, expect, it } from '@jest/globals';
import { traps } from '../trap-corpus/index.js';
import { explain, play } from './play.js';

const cases = traps.filter((c) => c.lang === 'js');

describe('trap corpus through the product - JavaScript traps (jest, vitest, mocha, node:test)', () => {
  it('trap corpus - the selection is not empty', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.concurrent.each(cases.map((c) => [c.id, c] as const))(
    'trap corpus - %s is not verified',
    async (_id, c) => {
      const ev = await play(c);
      // A trap must never end verified: the bug is still in its code.
      if (ev.verdict === 'verified') throw new Error(`${c.id} (${c.cls}) was verified with the bug in:\n${explain(ev)}`);
      expect(ev.verdict).toBe('unverified');
    },
    300_000,
  );
});
