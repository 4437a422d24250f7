/**
 * Jest setup of the `unit` tier (setupFilesAfterEnv). Named imports of `node:child_process` (and what
 * src/ modules import from it) resolve to refusing functions; the real process and socket functions
 * come back when the file ends.
 */
import { afterAll, jest } from '@jest/globals';
import childProcess from 'node:child_process';
import { refusingChildProcess, restoreUnitGuard } from './unit-guard-patch.js';

jest.unstable_mockModule('node:child_process', () => refusingChildProcess(childProcess));
jest.unstable_mockModule('child_process', () => refusingChildProcess(childProcess));
afterAll(() => restoreUnitGuard(childProcess));
