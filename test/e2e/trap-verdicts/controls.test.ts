/**
 * The own trap corpus (test/e2e/trap-corpus), played through the product: honest controls.
 * Each case's cheat is proven real by corpus-real.test.ts (the runner alone goes green with the bug in).
 */
import { controls } from '../trap-corpus/index.js';
import { describeVerdicts } from './play.js';

describeVerdicts('honest controls', controls, 'control');
