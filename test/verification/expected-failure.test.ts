/** An expected failure is never a pass (issue 38): unittest's summary and -v lines count it as skipped, as pytest's xfail is. */
import { describe, expect, it } from '@jest/globals';
import { parseUnittestSummary } from '../../src/agent/verification/test-results/parsers/unittest.js';
import { unittestRunner } from '../../src/agent/verification/test-results/runners/unittest.js';

describe('expected failures', () => {
  it('the summary: OK (expected failures=1) of 3 is 2 passed, 1 skipped', () => {
    expect(parseUnittestSummary(['Ran 3 tests in 0.001s', '', 'OK (expected failures=1)'])?.counts).toEqual({
      passed: 2,
      failed: 0,
      skipped: 1,
      total: 3,
    });
  });

  it("the -v lines: 'expected failure' is skipped, 'unexpected success' failed", () => {
    const report = [
      'test_a (t.T) ... ok',
      'test_b (t.T) ... expected failure',
      'test_c (t.T) ... unexpected success',
      '',
      'Ran 3 tests in 0.001s',
      '',
      'FAILED (unexpected successes=1, expected failures=1)',
    ].join('\n');
    const parsed = unittestRunner.parse(report, '/r');
    expect(parsed?.counts).toEqual({ passed: 1, failed: 1, skipped: 1, total: 3 });
  });
});
