/**
 * Issue 27: a base test never silently disappears. An honest fix that deletes an obsolete test
 * (Python unittest) or renames the rows of a table test (Go) is judged by the kept run (the fix's source
 * under the base's own tests), not by the count gates: each deleted or renamed base test is a changed
 * expectation in the evidence and at the top of the PR body, with its outcome there; verified with the
 * default gates.changed_tests: review, unverified with fail. Deleting the failing test without a fix
 * stays unverified: under the base's tests it still fails. Real git, real runners.
 */
import { describe, expect, it } from '@jest/globals';
import type { Evidence } from '../../../src/agent/evidence/types.js';
import type { CorpusCase } from '../trap-corpus/index.js';
import { explain as why, playCase as play } from '../trap-corpus/play.js';
import { GO_RENAMES_ROWS, PY_CHEAT_DELETES_FAILING, PY_DELETES_OBSOLETE } from './cases.js';

const gate = (ev: Evidence, name: string) => [...ev.gates].reverse().find((g) => g.name === name);

/** Plays `c` with `extra` config lines: unverified, refused by the kept run (tests-kept-base); the evidence and that gate's detail. */
async function refused(c: CorpusCase, extra = ''): Promise<{ ev: Evidence; detail: string }> {
  const { ev } = await play(c, extra);
  expect(ev.verdict).toBe('unverified');
  const g = gate(ev, 'tests-kept-base');
  expect(g).toMatchObject({ passed: false });
  return { ev, detail: g?.detail ?? '' };
}

/** Lines under configFor's own `gates:` section. */
const FAIL = '  changed_tests: fail\n';
const HASH_TEST = 'tests/test_spans.py > SpanTest::test_hash';

describe('differential runs - deleted and renamed base tests are changed expectations', () => {
  it('differential deleted - a unittest fix that deletes an obsolete test is verified, the deleted test listed with its failure on the new code', async () => {
    const { ev, summary } = await play(PY_DELETES_OBSOLETE);
    expect({ verdict: ev.verdict, why: why(ev) }).toMatchObject({ verdict: 'verified' });
    expect(ev.changedExpectations).toEqual([
      expect.objectContaining({ test: HASH_TEST, kind: 'deleted', outcome: 'failed', now: 'none (deleted)' }),
    ]);
    expect(ev.changedExpectations?.[0]?.failure).toContain('test_hash');
    expect(gate(ev, 'tests-kept-base')).toMatchObject({ passed: true });
    expect(gate(ev, 'tests-kept-base')?.detail).toContain('1 were deleted');
    // The count gates saw one test fewer: early feedback, the kept run decided.
    for (const name of ['tests-kept', 'assertions-kept']) expect(gate(ev, name)?.detail).toContain('early feedback');
    const top = summary.indexOf('### Changed expectations');
    expect(top).toBeGreaterThan(0);
    expect(top).toBeLessThan(summary.indexOf('| Gate'));
    expect(summary).toContain('SpanTest::test_hash');
    expect(summary).toContain('deleted by the change');
  }, 240_000);

  it('differential deleted - the same fix with gates.changed_tests: fail is unverified, naming the deleted test', async () => {
    const { ev, detail } = await refused(PY_DELETES_OBSOLETE, FAIL);
    expect(detail).toContain('gates.changed_tests: fail');
    expect(detail).toContain(HASH_TEST);
    expect(ev.changedExpectations?.map((c) => c.test)).toEqual([HASH_TEST]);
  }, 240_000);

  it('differential deleted - a cheat that deletes the failing test and fixes nothing is unverified: under the base tests it still fails', async () => {
    // red-green off (it would refuse first: no changed test fails on the base): the kept run must refuse on its own.
    const { detail } = await refused(PY_CHEAT_DELETES_FAILING, '  red_green: false\n');
    expect(detail).toContain('SpanTest::test_not_equal_to_other_types');
    expect(detail).toContain('still fail');
  }, 240_000);

  it('differential deleted - the same cheat with the default gates is unverified', async () => {
    const { ev } = await play(PY_CHEAT_DELETES_FAILING);
    expect({ verdict: ev.verdict, why: why(ev) }).toMatchObject({ verdict: 'unverified' });
  }, 240_000);

  const rows = ['two_words', 'one_word', 'outer_spaces'];
  const olds = ['case1', 'case2', 'case3'];

  it('differential renamed - a Go fix that renames the rows of a table test is verified, each old row listed with its new name', async () => {
    const { ev, summary } = await play(GO_RENAMES_ROWS);
    expect({ verdict: ev.verdict, why: why(ev) }).toMatchObject({ verdict: 'verified' });
    expect(ev.changedExpectations).toEqual(
      olds.map((o, i) =>
        expect.objectContaining({
          test: `example.com/slug > TestMake/${o}`,
          kind: 'renamed',
          now: `example.com/slug > TestMake/${rows[i] ?? ''}`,
          outcome: 'passed',
          failure: '',
        }),
      ),
    );
    expect(gate(ev, 'tests-kept')?.detail).toContain('early feedback');
    expect(summary).toContain('renamed by the change to');
    expect(summary).toContain('TestMake/outer_spaces');
  }, 240_000);

  it('differential renamed - the same Go fix with gates.changed_tests: fail is unverified', async () => {
    const { detail } = await refused(GO_RENAMES_ROWS, FAIL);
    expect(detail).toContain('3 were renamed');
  }, 240_000);
});
