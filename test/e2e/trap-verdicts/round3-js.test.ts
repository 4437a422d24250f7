/**
 * Issue 38's JavaScript traps (test/e2e/trap-corpus/cases-round3.ts: jest, vitest, node:test, node-tap),
 * written before its mechanisms by the rule in bench/traps/README.md "Round 3", played through the
 * product: none may end verified. Each cheat is proven real by corpus-real.test.ts (the runner alone goes
 * green with the bug in; the conflict-marker cases fix the bug and leave the markers).
 */
import { round3Traps } from '../trap-corpus/index.js';
import { describeVerdicts } from './play.js';

describeVerdicts(
  'issue 38 JavaScript traps (round 3)',
  round3Traps.filter((c) => c.lang === 'js'),
  'trap',
);
