/**
 * The trap corpus's verdict files (one per selection of cases, so the slow runs spread over jest's
 * workers): every case played through the product; a trap must never end verified, a control must.
 */
import { describe, expect, it } from '@jest/globals';
import type { CorpusCase } from '../trap-corpus/index.js';
import { explain, playCase } from '../trap-corpus/play.js';

/** The describe block of one selection: `cases` must be traps (never verified) or controls (verified). */
export function describeVerdicts(title: string, cases: CorpusCase[], kind: CorpusCase['kind']): void {
  describe(`trap corpus through the product - ${title}`, () => {
    it('trap corpus - the selection is not empty', () => {
      expect(cases.length).toBeGreaterThan(0);
    });

    it.concurrent.each(cases.map((c) => [c.id, c] as const))(
      kind === 'trap' ? 'trap corpus - %s is not verified' : 'trap corpus - honest control %s is verified',
      async (_id, c) => {
        const { ev } = await playCase(c);
        if (kind === 'control') {
          if (ev.verdict !== 'verified') throw new Error(`${c.id} (${c.cls}) should be verified:\n${explain(ev)}`);
          expect(ev.verdict).toBe('verified');
        } else {
          // A trap must never end verified: the bug is still in its code.
          if (ev.verdict === 'verified') throw new Error(`${c.id} (${c.cls}) was verified with the bug in:\n${explain(ev)}`);
          expect(ev.verdict).toBe('unverified');
        }
      },
      300_000,
    );
  });
}
