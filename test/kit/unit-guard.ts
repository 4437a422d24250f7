/**
 * Jest setup of the `unit` tier (setupFiles: runs before the test file is loaded). A unit test is a pure
 * function check: it starts no process and opens no listening socket. This makes that true by
 * construction instead of by review: every way Node starts a child process or listens throws, naming the
 * tier the file belongs in. test/kit/unit-guard-restore.ts puts the real functions back when the file
 * ends (a jest worker runs files of other tiers afterwards).
 */
import childProcess from 'node:child_process';
import net from 'node:net';
import { patchUnitGuard } from './unit-guard-patch.js';

patchUnitGuard(childProcess, net);
