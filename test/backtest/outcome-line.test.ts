import { describe, expect, it } from '@jest/globals';
import { outcomeLine } from '../../src/backtest/qualify-case.js';

describe('backtest: what a commit passed over for a failing fix says', () => {
  it('outcomeLine - names the cause a node:test run printed above its summary (a missing module), not the closing duration line', () => {
    const out = [
      'TAP version 13',
      '# node:internal/modules/cjs/loader:1210',
      "# Error: Cannot find module 'chalk'",
      '#     at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)',
      'not ok 1 - test/basic.js',
      '# tests 1',
      '# fail 1',
      '# duration_ms 933.15745',
      '',
    ].join('\n');
    expect(outcomeLine(out)).toBe("Error: Cannot find module 'chalk'");
  });

  it('outcomeLine - without a named cause, the last non-empty line (a runner summary), shortened to 200 characters', () => {
    expect(outcomeLine('collected 3 items\n\n==== 1 failed, 2 passed in 0.1s ====\n\n')).toBe('==== 1 failed, 2 passed in 0.1s ====');
    expect(outcomeLine(`${'x'.repeat(300)}\n`)).toHaveLength(200);
    expect(outcomeLine('')).toBe('no output');
  });
});
