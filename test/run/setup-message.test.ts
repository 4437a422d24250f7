/** The lines of a failed setup's output that go into its one message (src/run/run-setup.ts). */
import { describe, expect, it } from '@jest/globals';
import { telltaleLines } from '../../src/run/run-setup.js';

describe('setup failure: the lines that say why', () => {
  it('the first error lines with something to say, not the usage page after them nor a bare "npm error"', () => {
    const out = [
      'npm error code EUSAGE',
      'npm error',
      'npm error The `npm ci` command can only install with an existing package-lock.json or',
      'npm error npm-shrinkwrap.json with lockfileVersion >= 1.',
      'npm error',
      'npm error   --audit',
      'npm error     When "true" submit audit reports alongside the current npm command to the',
      'npm error A complete log of this run can be found in: /tmp/proofpr-run-x/home/.npm/_logs/1.log',
    ].join('\n');
    expect(telltaleLines(out, ['/tmp/proofpr-run-x'])).toEqual([
      'npm error code EUSAGE',
      'npm error The `npm ci` command can only install with an existing package-lock.json or',
      'npm error npm-shrinkwrap.json with lockfileVersion >= 1.',
    ]);
  });

  it("a line naming the run's scratch folder is left out (it is gone when the message is read)", () => {
    expect(telltaleLines('error: cannot open /tmp/scratch/a\nfatal: unable to continue here', ['/tmp/scratch'])).toEqual([
      'fatal: unable to continue here',
    ]);
  });

  it('no error word: the last lines; long lines are cut', () => {
    expect(telltaleLines('a b c\nd e f\ng h i\nj k l\n')).toEqual(['d e f', 'g h i', 'j k l']);
    expect(telltaleLines(`error in ${'x'.repeat(300)}`)[0]).toHaveLength(200);
  });
});
