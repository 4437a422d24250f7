import { z } from 'zod';
import type { TestOutcome } from '../../../events.js';
import { notBuilt } from '../unbuilt.js';
import { binName, parseJson, relFile, reportOf, testCase } from './report-util.js';
import type { Runner, RunnerReport } from './types.js';

const shape = z.object({
  numTotalTests: z.number(),
  testResults: z.array(
    z.object({
      name: z.string(),
      /** The file's own status: `failed` with no assertion result when it failed before any test ran. */
      status: z.string().optional(),
      assertionResults: z.array(
        z.object({
          fullName: z.string().optional(),
          title: z.string(),
          ancestorTitles: z.array(z.string()).optional(),
          status: z.string(),
          /** jest's `test.failing`: `passed` means it failed, as marked. */
          failing: z.boolean().optional(),
        }),
      ),
    }),
  ),
});

const outcome = (status: string): TestOutcome => (status === 'passed' ? 'passed' : status === 'failed' ? 'failed' : 'skipped');

/**
 * Jest `--json` and Vitest's json reporter (same shape): every assertion result is one test. A test file
 * that failed before any test ran ("Test suite failed to run": a syntax or type error, an import that
 * throws) is one failed test, `<file> > [build failed]` (see unbuilt.ts).
 */
export function parseJestReport(text: string, cwd: string): RunnerReport | undefined {
  const r = shape.safeParse(parseJson(text));
  if (!r.success) return undefined;
  return reportOf(
    r.data.testResults.flatMap((f) => {
      const file = relFile(f.name, cwd);
      if (f.assertionResults.length === 0 && f.status === 'failed') return [notBuilt(file ?? f.name, file)];
      return f.assertionResults.map((a) =>
        // An expected failure is never a pass: a `test.failing` that failed, as marked, counts as skipped.
        testCase(
          file,
          a.fullName ?? [...(a.ancestorTitles ?? []), a.title].join(' '),
          a.failing && a.status === 'passed' ? 'skipped' : outcome(a.status),
        ),
      );
    }),
  );
}

export const jestRunner: Runner = {
  name: 'jest',
  source: 'jest-json',
  match: (w) => (binName(w[0]) === 'jest' ? 1 : undefined),
  parse: parseJestReport,
};

export const vitestRunner: Runner = {
  name: 'vitest',
  source: 'jest-json',
  match: (w) => (binName(w[0]) === 'vitest' ? 1 : undefined),
  parse: parseJestReport,
};
