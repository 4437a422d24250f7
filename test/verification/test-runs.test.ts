import { describe, expect, it } from '@jest/globals';
import { loadBashParser } from '../../src/agent/permissions/bash-parser.js';
import { isTestCommand } from '../../src/agent/verification/test-runs/test-runs.js';

describe('isTestCommand', () => {
  it.each([
    ['npm test', 'npm test', true],
    ['npm test -- -t foo', 'npm test', true],
    ['  npm   test  ', 'npm test', true],
    ['npx jest --ci test/a.test.ts', 'npx  jest', true],
    ['CI=1 npm test', 'CI=1 npm test', true],
    // Issue 16: only the test command itself; nothing around it that can hide or replace its status or output.
    ['npm test 2>&1 | tail -20', 'npm test', false],
    ['npm test|tail', 'npm test', false],
    ['npm test;echo done', 'npm test', false],
    ['npm test || true', 'npm test', false],
    ['npm test && printf "Tests: 5 passed"', 'npm test', false],
    ['(npm test)', 'npm test', false],
    ['npm test > log.txt', 'npm test', false],
    ['npm test -- $FILTER', 'npm test', false],
    ['NODE_OPTIONS=--require=./fake.js npm test', 'npm test', false],
    ['printf "# pass 5\\n# fail 0\\n"', 'npm test', false],
    ['npm testing', 'npm test', false],
    ['npm tes', 'npm test', false],
    ['echo npm test', 'npm test', false],
    ['cd sub && npm test', 'npm test', false],
    ['npm run test', 'npm test', false],
    ['touch .ran && node --test', 'touch .ran && node --test', true],
    ['touch .ran && node --test | tail', 'touch .ran && node --test', false],
  ])('test command - %j with test.command %j is a test run: %s', async (command, testCommand, expected) => {
    expect(isTestCommand(command, testCommand, await loadBashParser())).toBe(expected);
  });

  it('test command - nothing is a test run when test.command is not configured', async () => {
    const p = await loadBashParser();
    expect(isTestCommand('npm test', undefined, p)).toBe(false);
    expect(isTestCommand('npm test', '   ', p)).toBe(false);
  });
});
