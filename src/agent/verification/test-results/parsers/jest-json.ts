import { z } from 'zod';
import type { TestCounts } from '../../../events.js';

const n = z.number().int().min(0);
const jestJson = z.object({
  numPassedTests: n,
  numFailedTests: n,
  numPendingTests: n.optional(),
  numTodoTests: n.optional(),
  numTotalTests: n,
  testResults: z.array(z.object({ status: z.string().optional(), assertionResults: z.array(z.unknown()).optional() })).optional(),
});

/**
 * Jest `--json` / Vitest `--reporter=json` results: numPassedTests, numFailedTests, numPendingTests +
 * numTodoTests (skipped), numTotalTests; a test file that failed before any test ran (status `failed`,
 * no assertion result) is one failed test, as the per-test report reads it (jest's
 * numRuntimeErrorTestSuites also counts files whose afterAll failed; vitest has no such field). Undefined
 * when the text is not JSON of that shape.
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
  const unbuilt = (d.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0).length;
  return {
    passed: d.numPassedTests,
    failed: d.numFailedTests + unbuilt,
    skipped: (d.numPendingTests ?? 0) + (d.numTodoTests ?? 0),
    total: d.numTotalTests + unbuilt,
  };
}
