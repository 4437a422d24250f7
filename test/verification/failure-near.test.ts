import { describe, expect, it } from '@jest/globals';
import { failureNear } from '../../src/agent/verification/differential/judge-kept.js';

/** The excerpt a changed expectation shows the reviewer: the base test's failure on the new code. */
describe('failureNear', () => {
  it('strips colours (vitest prints them even without a terminal)', () => {
    const out = [
      '\u001b[31m   \u001b[31m×\u001b[31m formats a price\u001b[39m\u001b[32m 23\u001b[2mms\u001b[22m\u001b[39m',
      "\u001b[31mAssertionError\u001b[22m: expected 'USD 2.00' to be '$2.00'\u001b[39m",
    ].join('\n');
    const got = failureNear(out, 'test/money.test.js > formats a price');
    expect(got).toContain("AssertionError: expected 'USD 2.00' to be '$2.00'");
    expect(got).not.toContain('\u001b');
  });

  it('finds a mocha test whose id carries its describe title, at the failure block rather than the listing', () => {
    const out = [
      '  money',
      '    ✔ rounds to the nearest cent',
      '    1) formats a price with two decimals',
      '',
      '  1 passing (5ms)',
      '  1 failing',
      '',
      '  1) money',
      '       formats a price with two decimals:',
      '',
      '      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      "      + '$2'",
      "      - '$2.00'",
    ].join('\n');
    const got = failureNear(out, 'test/money.test.js > money formats a price with two decimals');
    expect(got.split('\n')[0]).toBe('       formats a price with two decimals:');
    expect(got).toContain('AssertionError [ERR_ASSERTION]');
  });

  it('finds a unittest method by the name unittest prints', () => {
    const out = [
      '.F',
      '======================================================================',
      'FAIL: test_formats_a_price (tests.test_calc.MoneyTest.test_formats_a_price)',
      '----------------------------------------------------------------------',
      "AssertionError: 'USD 2.00' != '$2.00'",
    ].join('\n');
    expect(failureNear(out, 'tests/test_calc.py > MoneyTest::test_formats_a_price')).toContain("AssertionError: 'USD 2.00' != '$2.00'");
  });

  it("keeps jest's first failure line when it reads as one; nothing found is empty", () => {
    const out = ['  ✕ receipt (10 ms)', '', '  ● receipt', '', '    expect(received).toMatchSnapshot()'].join('\n');
    expect(failureNear(out, 'test/money.test.js > receipt').split('\n')[0]).toBe('  ✕ receipt (10 ms)');
    expect(failureNear(out, 'test/money.test.js > something else entirely')).toBe('');
  });
});
