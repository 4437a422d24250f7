import { readFileSync, statSync } from 'node:fs';
import type { TestCounts } from '../events.js';
import { parseJestJson } from './parsers/jest-json.js';
import { parseJunit } from './parsers/junit.js';

/** File timestamps come from a coarse kernel clock that can lag the wall clock by a few milliseconds. */
const CLOCK_SLACK_MS = 50;

/**
 * Counts from a report file written by the test command: JUnit XML or Jest/Vitest JSON (told apart by
 * content, not name). A report last modified before the run started is a stale one from an earlier run
 * and is ignored, as is a missing or unreadable one (undefined: the caller falls back to summary lines).
 */
export function parseReport(path: string, startedAtMs: number): { counts: TestCounts; source: 'junit' | 'jest-json' } | undefined {
  let text: string;
  try {
    if (statSync(path).mtimeMs < startedAtMs - CLOCK_SLACK_MS) return undefined;
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const head = text.trimStart().slice(0, 1);
  if (head === '{') {
    const c = parseJestJson(text);
    return c && { counts: c, source: 'jest-json' };
  }
  if (head === '<') {
    const c = parseJunit(text);
    return c && { counts: c, source: 'junit' };
  }
  return undefined;
}
