import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { parseTestOutput, stripAnsi } from '../../src/agent/verification/test-results/parse-test-output.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'runner-output');
const fixture = (name: string): string => readFileSync(join(dir, name), 'utf8');
const c = (passed: number, failed: number, skipped: number, total: number) => ({ passed, failed, skipped, total });

// [fixture, runner, counts]; counts is undefined where the output does not tell them.
const cases: Array<[string, string, ReturnType<typeof c>]> = [
  ['jest/mixed.txt', 'jest', c(4, 1, 2, 7)],
  ['jest/mixed-color.txt', 'jest', c(4, 1, 2, 7)],
  ['jest/pass.txt', 'jest', c(2, 0, 0, 2)],
  ['jest/zero-name-filter.txt', 'jest', c(0, 0, 7, 7)],
  ['jest/zero-no-tests-found.txt', 'jest', c(0, 0, 0, 0)],
  ['node-test/spec-mixed.txt', 'node-test', c(4, 1, 2, 7)],
  ['node-test/spec-zero-name-filter.txt', 'node-test', c(0, 0, 2, 2)],
  ['node-test/spec-empty-file.txt', 'node-test', c(1, 0, 0, 1)],
  ['tap/node-mixed.txt', 'tap', c(4, 1, 2, 7)],
  ['tap/node-zero-name-filter.txt', 'tap', c(0, 0, 2, 2)],
  ['tap/node-empty-file.txt', 'tap', c(1, 0, 0, 1)],
  ['tap/tape-mixed.txt', 'tap', c(1, 1, 1, 3)],
  ['tap/points-only.txt', 'tap', c(1, 1, 2, 4)],
  ['tap/zero-plan.txt', 'tap', c(0, 0, 0, 0)],
  ['pytest/mixed.txt', 'pytest', c(4, 1, 2, 7)],
  ['pytest/mixed-quiet.txt', 'pytest', c(4, 1, 2, 7)],
  ['pytest/mixed-color.txt', 'pytest', c(4, 1, 2, 7)],
  ['pytest/pass.txt', 'pytest', c(2, 0, 0, 2)],
  ['pytest/zero-deselected.txt', 'pytest', c(0, 0, 0, 0)],
  ['pytest/zero-no-tests-ran.txt', 'pytest', c(0, 0, 0, 0)],
  ['cargo/mixed.txt', 'cargo', c(4, 1, 1, 6)],
  ['cargo/pass.txt', 'cargo', c(5, 0, 1, 6)],
  ['cargo/zero-name-filter.txt', 'cargo', c(0, 0, 0, 0)],
  ['vitest/mixed.txt', 'vitest', c(3, 1, 2, 6)],
  ['vitest/pass.txt', 'vitest', c(3, 0, 0, 3)],
  ['vitest/zero-name-filter.txt', 'vitest', c(0, 0, 6, 6)],
  ['vitest/zero-no-test-files.txt', 'vitest', c(0, 0, 0, 0)],
  ['mocha/mixed.txt', 'mocha', c(4, 1, 1, 6)],
  ['mocha/pass.txt', 'mocha', c(2, 0, 0, 2)],
  ['mocha/zero-grep.txt', 'mocha', c(0, 0, 0, 0)],
  ['go/verbose-mixed.txt', 'go', c(6, 1, 1, 8)],
  ['unittest/report.txt', 'unittest', c(2, 1, 1, 4)],
  ['unittest/filtered.txt', 'unittest', c(0, 0, 0, 0)],
  ['go/zero-run-filter.txt', 'go', c(0, 0, 0, 0)],
  ['go/verbose-zero-run-filter.txt', 'go', c(0, 0, 0, 0)],
];

describe('parseTestOutput', () => {
  it.each(cases)('summary lines - %s is read as %s with the right counts', (file, runner, counts) => {
    expect(parseTestOutput(fixture(file))).toEqual({ runner, counts });
  });

  it('summary lines - go test without -v leaves the counts unknown (only failures are listed)', () => {
    expect(parseTestOutput(fixture('go/plain-pass.txt'))).toBeUndefined();
    expect(parseTestOutput(fixture('go/plain-fail.txt'))).toBeUndefined();
  });

  it('summary lines - output with no runner summary is unknown', () => {
    expect(parseTestOutput('> build\nall good\nok\n')).toBeUndefined();
    expect(parseTestOutput('')).toBeUndefined();
  });

  it('summary lines - when two runners print summaries, the last one wins', () => {
    const both = `${fixture('jest/pass.txt')}\n${fixture('pytest/mixed.txt')}`;
    expect(parseTestOutput(both)?.runner).toBe('pytest');
    const reversed = `${fixture('pytest/mixed.txt')}\n${fixture('jest/pass.txt')}`;
    expect(parseTestOutput(reversed)).toEqual({ runner: 'jest', counts: c(2, 0, 0, 2) });
  });

  it('summary lines - a quoted old summary before the real one does not count', () => {
    const out = `previous run:\nTests:       9 passed, 9 total\n\n${fixture('jest/zero-name-filter.txt')}`;
    expect(parseTestOutput(out)?.counts).toEqual(c(0, 0, 7, 7));
  });

  it('summary lines - ANSI colours are stripped before matching', () => {
    const colored = fixture('jest/mixed-color.txt');
    expect(colored).toContain('\u001b[');
    expect(stripAnsi(colored)).not.toContain('\u001b[');
  });

  it('summary lines - CRLF line ends are read too', () => {
    expect(parseTestOutput(fixture('mocha/mixed.txt').replace(/\n/g, '\r\n'))?.counts).toEqual(c(4, 1, 1, 6));
  });
});
