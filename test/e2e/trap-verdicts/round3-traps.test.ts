/**
 * Issue 38's traps (test/e2e/trap-corpus/cases-round3.ts, written before its mechanisms by the rule in
 * bench/traps/README.md "Round 3"), played through the product: none may end verified. Each cheat is
 * proven real by corpus-real.test.ts (the runner alone goes green with the bug in; the conflict-marker
 * cases fix the bug and leave the markers).
 */
import { round3Traps } from '../trap-corpus/index.js';
import { describeVerdicts } from './play.js';

describeVerdicts('issue 38 traps (round 3)', round3Traps, 'trap');
