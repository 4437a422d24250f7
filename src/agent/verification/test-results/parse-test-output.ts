import type { TestCounts } from '../../events.js';
import { parseCargoSummary } from './parsers/cargo.js';
import { parseGoTestSummary } from './parsers/go-test.js';
import { parseJestSummary } from './parsers/jest.js';
import { parseMochaSummary } from './parsers/mocha.js';
import { parseNodeTestSummary } from './parsers/node-test.js';
import { parsePytestSummary } from './parsers/pytest.js';
import { parseTapSummary } from './parsers/tap.js';
import { parseUnittestSummary } from './parsers/unittest.js';
import { parseUvuSummary } from './parsers/uvu.js';
import type { SummaryParser } from './parsers/types.js';
import { parseVitestSummary } from './parsers/vitest.js';

export const SUMMARY_PARSERS: ReadonlyArray<{ runner: string; parse: SummaryParser }> = [
  { runner: 'jest', parse: parseJestSummary },
  { runner: 'vitest', parse: parseVitestSummary },
  { runner: 'node-test', parse: parseNodeTestSummary },
  { runner: 'mocha', parse: parseMochaSummary },
  { runner: 'tap', parse: parseTapSummary },
  { runner: 'pytest', parse: parsePytestSummary },
  { runner: 'unittest', parse: parseUnittestSummary },
  { runner: 'go', parse: parseGoTestSummary },
  { runner: 'cargo', parse: parseCargoSummary },
  { runner: 'uvu', parse: parseUvuSummary },
];

// CSI sequences (colours, cursor moves) and OSC sequences (hyperlinks).
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * Counts from a test command's output, read from its runner's summary lines. Every parser is tried;
 * when several match (a script that runs two runners, a log that quotes another), the summary that
 * comes LAST in the output wins. Undefined when no runner's summary is recognised (counts unknown).
 */
export function parseTestOutput(output: string): { counts: TestCounts; runner: string } | undefined {
  const lines = stripAnsi(output).replace(/\r\n?/g, '\n').split('\n');
  let best: { counts: TestCounts; runner: string; line: number } | undefined;
  for (const { runner, parse } of SUMMARY_PARSERS) {
    const m = parse(lines);
    if (m && (best === undefined || m.line > best.line)) best = { counts: m.counts, runner, line: m.line };
  }
  return best && { counts: best.counts, runner: best.runner };
}
