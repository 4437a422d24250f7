/** The review note the memory tests extract from. */
import type { ReviewNote } from '../../src/memory/types.js';

/** The maintainer's review on acme/widgets#13, as the memory reads it; `patch` changes any field. */
export const reviewNote = (body: string, patch: Partial<ReviewNote> = {}): ReviewNote => ({
  owner: 'acme',
  repo: 'widgets',
  pr: 13,
  prTitle: 'Parser drops the last line',
  kind: 'review',
  body,
  author: 'maintainer',
  at: '2026-11-30T23:59:00-05:00',
  url: 'https://github.com/acme/widgets/pull/13#pullrequestreview-8001',
  ...patch,
});
