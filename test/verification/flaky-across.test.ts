import { describe, expect, it } from '@jest/globals';
import { flakyAcross, flakyReruns, rerunOutputFile } from '../../src/agent/verification/test-runs/flaky-reruns.js';
import { runOf } from './run-kit.js';

describe('flakyAcross', () => {
  it('flaky - a test that passed in one run and failed in another is flaky; one that failed or was skipped every time is not', () => {
    const runs = [
      runOf([
        ['a > x', 'failed'],
        ['a > y', 'failed'],
        ['a > z', 'skipped'],
      ]),
      runOf([
        ['a > x', 'passed'],
        ['a > y', 'failed'],
        ['a > z', 'skipped'],
      ]),
      runOf([
        ['a > x', 'failed'],
        ['a > y', 'failed'],
      ]),
    ];
    expect(flakyAcross(runs)).toEqual([{ test: 'a > x', runs: 3, failures: 2 }]);
  });

  it('flaky - the re-runs default to 2 and follow verify.flaky_reruns; each re-run keeps its own output file', () => {
    expect(flakyReruns({})).toBe(2);
    expect(flakyReruns({ verify: { flaky_reruns: 0 } })).toBe(0);
    expect(rerunOutputFile('/r/tool-output/final-test-run-1.txt', 2)).toBe('/r/tool-output/final-test-run-1-rerun-2.txt');
    expect(rerunOutputFile('/r.d/out', 1)).toBe('/r.d/out-rerun-1');
  });
});
