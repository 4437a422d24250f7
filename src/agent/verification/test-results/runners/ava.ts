import { reportOf, testCase } from './report-util.js';
import { tapOutcome, tapTree } from './tap-tree.js';
import type { Runner } from './types.js';

/**
 * AVA `--tap` on stdout (the harness redirects stdout to the report file; AVA sends what tests log
 * to stderr). Every top-level point is one test; a todo counts as skipped.
 */
export const avaRunner: Runner = {
  name: 'ava',
  source: 'tap',
  match: (w) => (w[0]?.split('/').pop() === 'ava' ? 1 : undefined),
  parse(text) {
    const { points, sawTap } = tapTree(text);
    if (!sawTap) return undefined;
    return reportOf(points.map((p) => testCase(undefined, p.name, tapOutcome(p))));
  },
};
