import { describe, expect, it } from '@jest/globals';
import { hunkRange, revertHunks, type Hunk } from '../../src/agent/verification/hunks/diff-hunks.js';
import { groupHunks, noticed } from '../../src/agent/verification/hunks/untested-hunks.js';
import { runOf } from './run-kit.js';
import { createProgressPrinter } from '../../src/hosts/cli/progress.js';

const h = (file: string, headStart: number, headCount: number, baseLines: string[] = []): Hunk => ({
  file,
  headStart,
  headCount,
  baseLines,
});

describe('untested hunks: the parts', () => {
  it('untested hunks - a hunk is put back to the base lines: a change, an addition and a deletion, bottom to top', () => {
    const head = 'a\nB\nc\nnew1\nnew2\nd\n';
    // base: a b c d e — B replaced b (line 2), new1/new2 added after c (lines 4-5), e deleted after d (line 6).
    const hunks = [h('f', 2, 1, ['b\n']), h('f', 4, 2), h('f', 6, 0, ['e\n'])];
    expect(revertHunks(head, hunks)).toBe('a\nb\nc\nd\ne\n');
    expect(revertHunks(head, [hunks[1] as Hunk])).toBe('a\nB\nc\nd\n');
    expect(hunkRange(hunks[1] as Hunk)).toEqual({ file: 'f', startLine: 4, endLine: 5 });
    expect(hunkRange(hunks[2] as Hunk)).toEqual({ file: 'f', startLine: 6, endLine: 6 });
    expect(hunkRange(h('f', 0, 0, ['x\n']))).toEqual({ file: 'f', startLine: 1, endLine: 1 });
  });

  it('untested hunks - at most max groups: one hunk each, else one file each, else files spread over max groups', () => {
    const hs = [h('a', 1, 1), h('a', 5, 1), h('b', 1, 1), h('c', 1, 1), h('d', 1, 1)];
    expect(groupHunks(hs, 5).grouped).toBe('hunk');
    expect(groupHunks(hs, 4)).toMatchObject({
      grouped: 'file',
      groups: [[{ file: 'a' }, { file: 'a' }], [{ file: 'b' }], [{ file: 'c' }], [{ file: 'd' }]],
    });
    const spread = groupHunks(hs, 2);
    expect(spread.grouped).toBe('files');
    expect(spread.groups).toHaveLength(2);
    expect(spread.groups.flat()).toHaveLength(5);
  });

  it('untested hunks - a reversion is noticed by an exit status, a test outcome by id, or counts; a flaky test is no notice', () => {
    const head = runOf([
      ['t > a', 'passed'],
      ['t > b', 'passed'],
    ]);
    expect(
      noticed(
        head,
        runOf([
          ['t > a', 'passed'],
          ['t > b', 'passed'],
        ]),
      ),
    ).toBe(false);
    expect(
      noticed(
        head,
        runOf([
          ['t > a', 'passed'],
          ['t > b', 'failed'],
        ]),
      ),
    ).toBe(true);
    expect(noticed(head, runOf([['t > a', 'passed']]))).toBe(true);
    expect(
      noticed(head, {
        ...runOf([
          ['t > a', 'passed'],
          ['t > b', 'passed'],
        ]),
        exitCode: 1,
      }),
    ).toBe(true);
    expect(noticed(head, { ...head, counts: null, tests: [] })).toBe(true);
    expect(
      noticed(
        head,
        runOf([
          ['t > a', 'passed'],
          ['t > b', 'failed'],
        ]),
        ['t > b'],
      ),
    ).toBe(true); // exit status still differs
    const flakyHead = {
      ...runOf([
        ['t > a', 'passed'],
        ['t > b', 'failed'],
      ]),
      exitCode: 1,
    };
    expect(
      noticed(
        flakyHead,
        {
          ...runOf([
            ['t > a', 'passed'],
            ['t > b', 'passed'],
          ]),
          exitCode: 1,
        },
        ['t > b'],
      ),
    ).toBe(false);
  });
});

describe('untested hunks: the CLI prints the runs', () => {
  it('untested hunks - the progress line names the hunks no test noticed and the extra runs; a run names its flaky tests', () => {
    const lines: string[] = [];
    const print = createProgressPrinter((l) => lines.push(l));
    print({ type: 'untested_hunks', ts: '', hunks: [{ file: 'a.js', startLine: 1, endLine: 2 }], runs: 2, checked: 3, grouped: 'hunk' });
    print({ type: 'test_run', ts: '', run: { ...runOf([['t > a', 'passed']]), flaky: [{ test: 't > a', runs: 2, failures: 1 }] } });
    expect(lines).toEqual([
      '  untested hunks: 1 of 3 hunk(s) no test noticed reverted (2 extra test run(s))',
      '  test run (harness): go test ./... → exit 0, 1 passed, 0 failed, flaky: t > a',
    ]);
  });
});
