import { reportOf, testCase } from './report-util.js';
import { junitCases } from './junit-cases.js';
import type { Runner } from './types.js';

/**
 * `node --test`: the junit reporter to the report file, the spec reporter kept on stdout. Passed in
 * NODE_OPTIONS, so it reaches `node --test` through npm scripts too (options after the file
 * arguments would be read as files). Node 20's junit report names no file: ids are the describe path
 * and the test name.
 */
export const nodeTestRunner: Runner = {
  name: 'node-test',
  source: 'junit',
  match: (w) => (w[0]?.split('/').pop() === 'node' && w.slice(1).some((a) => a === '--test' || a.startsWith('--test=')) ? 1 : undefined),
  parse(text) {
    const cases = junitCases(text);
    if (!cases) return undefined;
    return reportOf(cases.map((c) => testCase(undefined, [...c.suites, c.attrs.name ?? ''].join(' > '), c.outcome)));
  },
};
