/**
 * Jest setup of the `unit` tier (setupFilesAfterEnv). Named imports of `node:child_process` (and what
 * src/ modules import from it) resolve to refusing functions; the real process and socket functions
 * come back when the file ends. A file whose code under test caught a refusal fails all the same: it
 * belongs in the integration tier, and passing there without its processes would test nothing.
 */
import { afterAll, jest } from '@jest/globals';
import childProcess from 'node:child_process';
import { refusingChildProcess, restoreUnitGuard, takeRefusals } from './unit-guard-patch.js';

jest.unstable_mockModule('node:child_process', () => refusingChildProcess(childProcess));
jest.unstable_mockModule('child_process', () => refusingChildProcess(childProcess));
afterAll(() => {
  restoreUnitGuard(childProcess);
  const refused = [...new Set(takeRefusals())];
  if (refused.length > 0)
    throw new Error(
      `this unit-tier file called ${refused.join(', ')} (the code under test may have caught the refusal): ` +
        'rename it to *.integration.test.ts so it runs with real processes',
    );
});
