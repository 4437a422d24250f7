/**
 * Jest setup of the `integration` and `e2e` tiers (setupFiles): the real process and socket functions,
 * in case a unit file that ran before in this worker ended without its afterAll.
 */
import childProcess from 'node:child_process';
import { restoreUnitGuard } from './unit-guard-patch.js';

restoreUnitGuard(childProcess);
