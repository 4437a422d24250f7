/** A webhook with a forged signature is logged once, in one line, without its payload (src/log.ts). */
import { describe, expect, it } from '@jest/globals';
import { webhookSignatureLine } from '../../../src/log.js';

describe('a rejected webhook signature in the logs', () => {
  it('the middleware and Probot each log the same failure: one line, the delivery named, no payload, no stack', () => {
    const inner = Object.assign(new Error('[@octokit/webhooks] signature does not match event payload and secret'), {
      event: { id: 'd-1', name: 'issue_comment', payload: { secret: 'body' } },
    });
    const outer = Object.assign(new AggregateError([inner], 'failed'), { event: inner.event });
    const first = webhookSignatureLine(outer);
    expect(first).toEqual({
      fields: { delivery: 'd-1', event: 'issue_comment' },
      msg: expect.stringMatching(/^webhook rejected: its signature does not match WEBHOOK_SECRET .*set the same one in both\)$/),
    });
    expect(JSON.stringify(first)).not.toContain('body');
    expect(webhookSignatureLine(inner)).toBeNull(); // Probot's handler, the same failure: not said twice
  });

  it('any other error is logged as it is', () => {
    expect(webhookSignatureLine(new Error('boom'))).toBeUndefined();
    expect(webhookSignatureLine({ msg: 'x' })).toBeUndefined();
  });
});
