/**
 * The own trap corpus (test/e2e/trap-corpus), played through the product: JavaScript traps (jest, vitest, mocha, node:test).
 * Each case's cheat is proven real by corpus-real.test.ts (the runner alone goes green with the bug in).
 */
import { isRound3, traps } from '../trap-corpus/index.js';
import { describeVerdicts } from './play.js';

describeVerdicts(
  'JavaScript traps (jest, vitest, mocha, node:test)',
  traps.filter((c) => c.lang === 'js' && !isRound3(c)),
  'trap',
);
