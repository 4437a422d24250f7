import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestCase } from '../../../events.js';

/**
 * The tests a harness run is narrowed to (a failing test re-run alone, the tests a change added): each
 * as its file (relative to the run's folder, when the report named it) and its name as the runner
 * reports it (the id without its `<file> > ` prefix). Every observer that can narrow its runner to them
 * does so from inside the runner (jest, vitest, mocha, pytest, go test); any other runner runs the
 * command whole. Narrowing only ever leaves tests out: a caller reads the selected tests' outcomes and
 * treats a selected test the run did not report as not run, never as passed.
 */
export interface TestSelection {
  tests: Array<{ file?: string; name: string }>;
  /** The folder the files are relative to (the harness run's cwd; a runner may run in a subfolder). */
  root?: string;
}

/** The file every observer reads the selection from, inside the run's fresh observe folder. */
export const selectionFile = (dir: string): string => join(dir, 'select.json');

/** The selection of `tests`: each one's file and its name without the `<file> > ` prefix its id carries. */
export function selectionOf(tests: readonly TestCase[]): TestSelection {
  const seen = new Set<string>();
  const out: TestSelection['tests'] = [];
  for (const t of tests) {
    if (seen.has(t.id)) continue;
    seen.add(t.id);
    const prefix = t.file ? `${t.file} > ` : '';
    const name = prefix && t.id.startsWith(prefix) ? t.id.slice(prefix.length) : t.id;
    out.push({ ...(t.file ? { file: t.file } : {}), name });
  }
  return { tests: out };
}

/** The selection written in `dir`, or undefined (no file: the run is whole). */
export function readSelection(dir: string): TestSelection | undefined {
  try {
    const v = JSON.parse(readFileSync(selectionFile(dir), 'utf8')) as TestSelection;
    return Array.isArray(v.tests) && v.tests.length > 0 ? v : undefined;
  } catch {
    return undefined;
  }
}

/** `s` as a literal inside a regular expression (JavaScript, RE2 and Python read these escapes alike). */
export const regexLiteral = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
