/**
 * The own trap corpus (test/e2e/trap-corpus), played through the product: honest controls (round 3 has its own file).
 * Each case's cheat is proven real by corpus-real.test.ts (the runner alone goes green with the bug in).
 */
import { controls, isRound3 } from '../trap-corpus/index.js';
import { describeVerdicts } from './play.js';

describeVerdicts(
  'honest controls',
  controls.filter((c) => !isRound3(c)),
  'control',
);
