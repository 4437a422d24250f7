import { counts, type SummaryMatch } from './types.js';

/** node-tap's closing line: `# { total: 191, pass: 189, fail: 1, skip: 1 }` (tap 18+); JSON-style keys are read too. */
const TOTALS = /^# \{\s*"?total"?:\s*\d+(?:\s*,\s*"?\w+"?:\s*\d+)*\s*\}\s*$/;

/**
 * node-tap's own totals: the closing `# { total, pass, fail, skip, todo }` line, which counts the results
 * its TAP parser surfaces (each assertion, each skipped, todo or empty subtest, each failure, and a
 * subtest's point that reads otherwise than its block: runners/node-tap.ts, tapCounts). Only an
 * unindented line counts (a test that prints one is inside its file's indented block). With
 * `calls` runner calls in the command, the last `calls` such lines are summed.
 */
export function parseTapTotals(lines: readonly string[], calls = 1): SummaryMatch | undefined {
  const found: number[] = [];
  for (let i = lines.length - 1; i >= 0 && found.length < calls; i--) if (TOTALS.test(lines[i] ?? '')) found.push(i);
  if (found.length === 0) return undefined;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const i of found) {
    const v = new Map<string, number>();
    for (const m of (lines[i] ?? '').matchAll(/"?(\w+)"?:\s*(\d+)/g)) v.set(m[1] ?? '', Number(m[2]));
    passed += v.get('pass') ?? 0;
    failed += v.get('fail') ?? 0;
    skipped += (v.get('skip') ?? 0) + (v.get('todo') ?? 0);
  }
  return { counts: counts(passed, failed, skipped), line: found[0] ?? 0 };
}
