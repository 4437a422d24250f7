/** Jest setup (setupFilesAfterEnv): every test file removes the temp folders it made, when it ends. */
import { afterAll } from '@jest/globals';
import { removeTempDirs } from './temp.js';

afterAll(() => removeTempDirs());
