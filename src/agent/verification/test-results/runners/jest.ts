import { z } from 'zod';
import type { TestOutcome } from '../../../events.js';
import { binName, parseJson, relFile, reportOf, testCase } from './report-util.js';
import type { Runner, RunnerReport } from './types.js';

const shape = z.object({
  numTotalTests: z.number(),
  testResults: z.array(
    z.object({
      name: z.string(),
      assertionResults: z.array(
        z.object({
          fullName: z.string().optional(),
          title: z.string(),
          ancestorTitles: z.array(z.string()).optional(),
          status: z.string(),
        }),
      ),
    }),
  ),
});

const outcome = (status: string): TestOutcome => (status === 'passed' ? 'passed' : status === 'failed' ? 'failed' : 'skipped');

/** Jest `--json` and Vitest's json reporter (same shape): every assertion result is one test. */
export function parseJestReport(text: string, cwd: string): RunnerReport | undefined {
  const r = shape.safeParse(parseJson(text));
  if (!r.success) return undefined;
  return reportOf(
    r.data.testResults.flatMap((f) =>
      f.assertionResults.map((a) =>
        testCase(relFile(f.name, cwd), a.fullName ?? [...(a.ancestorTitles ?? []), a.title].join(' '), outcome(a.status)),
      ),
    ),
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
