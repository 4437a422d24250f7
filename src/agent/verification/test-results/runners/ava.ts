import { testCase } from './report-util.js';
import { tapOutcome, tapRunner } from './tap-tree.js';

/**
 * AVA `--tap` on stdout (the harness redirects stdout to the report file; AVA sends what tests log
 * to stderr). Every top-level point is one test; a todo counts as skipped.
 */
export const avaRunner = tapRunner('ava', 'ava', (points) => points.map((p) => testCase(undefined, p.name, tapOutcome(p))));
