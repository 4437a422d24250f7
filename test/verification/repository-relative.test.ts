/** The kept run's output names no host path of its scratch checkout (src/agent/verification/differential/kept-run.ts). */
import { describe, expect, it } from '@jest/globals';
import { repositoryRelative } from '../../src/agent/verification/differential/kept-run.js';

describe('repositoryRelative', () => {
  it('paths under the checkout read relative to it; the checkout itself is "."; other paths stay', () => {
    const dir = '/tmp/proofpr-20261206-x/tmp/proofpr-pristine-abc/tree';
    const out = `at Object.<anonymous> (${dir}/test/stats.test.js:7:10)\ncwd ${dir}\nnode: /usr/bin/node`;
    expect(repositoryRelative(out, dir)).toBe('at Object.<anonymous> (test/stats.test.js:7:10)\ncwd .\nnode: /usr/bin/node');
  });
});
