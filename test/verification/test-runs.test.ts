import { describe, expect, it } from '@jest/globals';
import { isTestCommand } from '../../src/agent/verification/test-runs.js';

describe('isTestCommand', () => {
  it.each([
    ['npm test', 'npm test', true],
    ['npm test -- -t foo', 'npm test', true],
    ['  npm   test  ', 'npm test', true],
    ['npm test 2>&1 | tail -20', 'npm test', true],
    ['npm test|tail', 'npm test', true],
    ['npm test;echo done', 'npm test', true],
    ['npx jest --ci test/a.test.ts', 'npx  jest', true],
    ['npm testing', 'npm test', false],
    ['npm tes', 'npm test', false],
    ['echo npm test', 'npm test', false],
    ['cd sub && npm test', 'npm test', false],
    ['npm run test', 'npm test', false],
  ])('test command - %j with test.command %j is a test run: %s', (command, testCommand, expected) => {
    expect(isTestCommand(command, testCommand)).toBe(expected);
  });

  it('test command - nothing is a test run when test.command is not configured', () => {
    expect(isTestCommand('npm test', undefined)).toBe(false);
    expect(isTestCommand('npm test', '   ')).toBe(false);
  });
});
