/**
 * Issue 38's Python, Go and Rust traps (test/e2e/trap-corpus/cases-round3.ts: pytest, unittest, go test,
 * cargo test), written before its mechanisms by the rule in bench/traps/README.md "Round 3", played
 * through the product: none may end verified. Each cheat is proven real by corpus-real.test.ts.
 */
import { round3Traps } from '../trap-corpus/index.js';
import { describeVerdicts } from './play.js';

describeVerdicts(
  'issue 38 Python, Go and Rust traps (round 3)',
  round3Traps.filter((c) => c.lang !== 'js'),
  'trap',
);
