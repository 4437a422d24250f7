/**
 * Issue 38's honest controls (test/e2e/trap-corpus/cases-round3.ts), played through the product: each
 * must end verified (a vite alias its new test uses, new data rows, a rebuilt dist the package ships,
 * inline Rust tests, a node-tap top-level t.test).
 */
import { round3Controls } from '../trap-corpus/index.js';
import { describeVerdicts } from './play.js';

describeVerdicts('issue 38 honest controls (round 3)', round3Controls, 'control');
