import { describe, expect, it } from '@jest/globals';
import { redactSecrets, redactValue } from '../../src/agent/evidence/redact.js';

describe('redactSecrets', () => {
  it('redact - replaces every occurrence of a known secret of 8+ characters, longest first', () => {
    expect(redactSecrets('k=abcdefgh1234 again abcdefgh1234', ['abcdefgh', 'abcdefgh1234'])).toBe('k=[REDACTED] again [REDACTED]');
  });

  it('redact - leaves secrets shorter than 8 characters alone (they would match ordinary text)', () => {
    expect(redactSecrets('the test passed', ['test'])).toBe('the test passed');
  });

  it('redact - replaces common token shapes even when not declared', () => {
    const cases: [string, string][] = [
      [`ghp_${'A1'.repeat(18)}`, 'ghp_[REDACTED]'],
      [`gho_${'b'.repeat(36)}`, 'gho_[REDACTED]'],
      [`ghs_${'c'.repeat(36)}`, 'ghs_[REDACTED]'],
      [`ghu_${'d'.repeat(36)}`, 'ghu_[REDACTED]'],
      [`github_pat_11ABCDEFG_${'e'.repeat(40)}`, 'github_pat_[REDACTED]'],
      ['sk-ant-api03-abcdefghijklmnop_QR', 'sk-ant-[REDACTED]'],
      ['xoxb-1234567890-abcdef', 'xoxb-[REDACTED]'],
      ['xoxp-1234567890-abcdef', 'xoxp-[REDACTED]'],
      ['AKIAIOSFODNN7EXAMPLE', 'AKIA[REDACTED]'],
      ['Authorization: Bearer eyJhbGciOi.JIUzI1NiJ9', 'Authorization: Bearer [REDACTED]'],
      ['-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----', '-----BEGIN PRIVATE KEY-----[REDACTED]'],
    ];
    for (const [input, want] of cases) expect(redactSecrets(input, [])).toBe(want);
  });

  it('redact - leaves ordinary text untouched', () => {
    const text = 'npm test -- --runInBand; git diff HEAD~1; Bearer of bad news';
    expect(redactSecrets(text, [])).toBe(text);
  });

  it('redactValue - redacts nested strings and keeps structure', () => {
    expect(redactValue({ a: ['x secretvalue1 y', 3, null], b: { c: 'secretvalue1' } }, ['secretvalue1'])).toEqual({
      a: ['x [REDACTED] y', 3, null],
      b: { c: '[REDACTED]' },
    });
  });
});
