import { z } from 'zod';
import type { TestCounts } from '../../../events.js';

const n = z.number().int().min(0);
const jestJson = z.object({
  numPassedTests: n,
  numFailedTests: n,
  numPendingTests: n.optional(),
  numTodoTests: n.optional(),
  numTotalTests: n,
  numRuntimeErrorTestSuites: n.optional(),
});

/**
 * Jest `--json` / Vitest `--reporter=json` results: numPassedTests, numFailedTests, numPendingTests +
 * numTodoTests (skipped), numTotalTests; a test file that failed before any test ran
 * (numRuntimeErrorTestSuites) is one failed test. Undefined when the text is not JSON of that shape.
 */
export function parseJestJson(text: string): TestCounts | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const r = jestJson.safeParse(raw);
  if (!r.success) return undefined;
  const d = r.data;
  const unbuilt = d.numRuntimeErrorTestSuites ?? 0;
  return {
    passed: d.numPassedTests,
    failed: d.numFailedTests + unbuilt,
    skipped: (d.numPendingTests ?? 0) + (d.numTodoTests ?? 0),
    total: d.numTotalTests + unbuilt,
  };
}
