import { describe, it, expect } from '@jest/globals';
import { parseThreadReport } from '../../../src/usecases/review/thread-report.js';
import { threadsFromRest } from '../../../src/github/rest/review-threads.js';

describe('review follow-ups - the per-thread report and the REST fallback', () => {
  it('thread report - reads addressed / not addressed per thread key, the last line wins, unknown keys ignored', () => {
    const text = [
      'Done.',
      '```',
      'thread T1: addressed',
      '- thread t2: not addressed: needs a product decision',
      'thread T9: addressed',
      '```',
      'thread T1: not addressed: reverted',
    ].join('\n');
    const claims = parseThreadReport(text, ['T1', 'T2', 'T3']);
    expect(claims.get('T1')).toEqual({ addressed: false, why: 'reverted' });
    expect(claims.get('T2')).toEqual({ addressed: false, why: 'needs a product decision' });
    expect(claims.has('T3')).toBe(false);
    expect(claims.has('T9')).toBe(false);
  });

  it('thread report - "not addressed" is never read as "addressed"', () => {
    expect(parseThreadReport('thread T1: not addressed', ['T1']).get('T1')).toEqual({ addressed: false, why: 'no reason given' });
    expect(parseThreadReport('thread T1 - addressed', ['T1']).get('T1')).toEqual({ addressed: true });
  });

  it('REST fallback - review comments are grouped into threads by in_reply_to_id, all unresolved', () => {
    const c = (id: number, path: string, extra: Record<string, unknown> = {}) => ({
      id,
      body: `c${id}`,
      path,
      line: 3,
      created_at: `2026-11-29T11:0${id % 10}:00Z`,
      html_url: `u${id}`,
      user: { login: 'm' },
      ...extra,
    });
    const threads = threadsFromRest([c(2, 'a.ts', { in_reply_to_id: 1 }), c(1, 'a.ts'), c(3, 'b.ts', { line: null, original_line: 9 })]);
    expect(threads.map((t) => [t.id, t.path, t.line, t.outdated, t.resolved, t.comments.map((x) => x.id)])).toEqual([
      ['rest-1', 'a.ts', 3, false, false, [1, 2]],
      ['rest-3', 'b.ts', 9, true, false, [3]],
    ]);
  });
});
