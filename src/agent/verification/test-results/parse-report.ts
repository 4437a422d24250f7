import { readFileSync, statSync } from 'node:fs';
import type { TestCounts } from '../../events.js';
import { parseJestJson } from './parsers/jest-json.js';
import { parseJunit } from './parsers/junit.js';

/** File timestamps come from a coarse kernel clock that can lag the wall clock by a few milliseconds. */
const CLOCK_SLACK_MS = 50;
/** ISO run times are cut to the millisecond and taken a moment apart from the file's write. */
const FUTURE_SLACK_MS = 1000;

/**
 * Counts from a report file written by the test command: JUnit XML or Jest/Vitest JSON (told apart by
 * content, not name). A report last modified before the run started is a stale one from an earlier run
 * and is ignored; so is one last modified after the run ended (`endedAtMs`: a timestamp set to the future
 * to pass for fresh), and a missing or unreadable one (undefined: the caller falls back to summary lines).
 */
export function parseReport(
  path: string,
  startedAtMs: number,
  endedAtMs?: number,
): { counts: TestCounts; source: 'junit' | 'jest-json' } | undefined {
  let text: string;
  try {
    const { mtimeMs } = statSync(path);
    if (mtimeMs < startedAtMs - CLOCK_SLACK_MS) return undefined;
    if (endedAtMs !== undefined && mtimeMs > endedAtMs + FUTURE_SLACK_MS) return undefined;
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
