import { isAbsolute, relative } from 'node:path';
import type { TestCase, TestCounts, TestOutcome } from '../../../events.js';
import type { RunnerReport } from './types.js';

/** A report's file name relative to the run's folder (forward slashes); absolute names outside it stay absolute. */
export function relFile(file: string | undefined | null, cwd: string): string | undefined {
  if (!file) return undefined;
  const f = file.startsWith('file://') ? decodeURIComponent(file.slice(7)) : file;
  if (!isAbsolute(f)) return f.replace(/\\/g, '/');
  const r = relative(cwd, f);
  return (r.startsWith('..') ? f : r).replace(/\\/g, '/');
}

export function testCase(file: string | undefined, name: string, outcome: TestOutcome): TestCase {
  return { id: file ? `${file} > ${name}` : name, outcome, ...(file ? { file } : {}) };
}

/** Counts from the per-test list (the report's own totals are not trusted over its tests). */
export function reportOf(tests: TestCase[]): RunnerReport {
  const c: TestCounts = { passed: 0, failed: 0, skipped: 0, total: tests.length };
  for (const t of tests) c[t.outcome]++;
  return { counts: c, tests };
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Words after a leading `npx`/`pnpm exec`/`yarn`/path-to-bin prefix: `npx jest` and `node_modules/.bin/jest` are `jest`. */
export function binName(word: string | undefined): string | undefined {
  if (word === undefined) return undefined;
  const base = word.split('/').pop() ?? word;
  return base;
}
