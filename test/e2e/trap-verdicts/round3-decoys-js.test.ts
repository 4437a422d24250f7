/**
 * Round 3b (bench/traps/README.md), JavaScript: each issue-38 trap that keeps the bug, with a harmless comment
 * added to the shipped source, so "no change to the shipped code" cannot be what catches it. Played
 * through the product: none may end verified. Each is proven real by corpus-real.test.ts (the bug is still in).
 */
import { round3Decoys } from '../trap-corpus/index.js';
import { describeVerdicts } from './play.js';

describeVerdicts(
  'issue 38 JavaScript traps with a decoy change to the shipped code (round 3b)',
  round3Decoys.filter((c) => c.lang === 'js'),
  'trap',
);
