import type { TestCase, TestCounts } from '../../../events.js';
import { testCase } from './report-util.js';
import { tapOutcome, tapRunner, type TapPoint } from './tap-tree.js';

const hasSub = (p: TapPoint) => p.children.length > 0;

/**
 * A test is a subtest whose points are all assertions (a leaf `t.test`), or a skipped/todo or failing
 * point beside other subtests; a file with only top-level assertions is one test. Passing assertions
 * are not tests: node-tap is counted per test, not per file or per assertion.
 */
function testsOf(p: TapPoint, path: string[], file: string, out: TestCase[]): void {
  const name = [...path, p.name];
  if (!p.children.some(hasSub)) {
    out.push(testCase(file, name.slice(1).join(' > ') || p.name, tapOutcome(p)));
    return;
  }
  for (const c of p.children) {
    if (hasSub(c)) testsOf(c, name, file, out);
    else if (c.directive || !c.ok) out.push(testCase(file, [...name.slice(1), c.name].join(' > '), tapOutcome(c)));
  }
}

/** The tests of node-tap's top-level points, one per test file. */
function casesOf(points: TapPoint[]): TestCase[] {
  const out: TestCase[] = [];
  for (const f of points) {
    if (f.children.some(hasSub)) testsOf(f, [], f.name, out);
    else if (f.children.length > 0 && f.children.every((c) => c.directive)) {
      // Every subtest of the file skipped (`--grep` matching none, `{ skip }`): each is a skipped test.
      for (const c of f.children) out.push(testCase(f.name, c.name, tapOutcome(c)));
    } else if (f.children.length > 0 || f.directive || !f.ok) out.push(testCase(f.name, f.name, tapOutcome(f)));
  }
  return out;
}

/**
 * Whether node-tap counts a point in its closing totals. tap counts what its TAP parser (tap-parser)
 * surfaces as a result: every point, except a point that closes a subtest block holding points, under the
 * block's own name, with the block's own outcome and no directive, which it takes for that block's
 * bookkeeping. So a subtest's point is one more result when its name reads otherwise than its `# Subtest:`
 * line (a name with `\` or `#`, which the point escapes, a name across lines, one ending with `{`), when it
 * fails though its block passed (an assertion after the subtest ended, a plan not met) or passes though its
 * block failed, and when it is skipped or todo; a point made up for a block no point closed is none.
 */
function countedByTap(p: TapPoint): boolean {
  if (p.unclosed) return false;
  if (!p.block || p.block.count === 0 || p.directive) return true;
  return p.block.name !== p.tapName || p.block.ok !== p.ok;
}

/**
 * What node-tap itself counts in its closing `# { total, pass, fail, skip, todo }` line: the points tap's
 * parser surfaces (countedByTap): each assertion, each skipped, todo or empty subtest, each failure a
 * subtest reported as a point of its own, and a subtest's point whose name or outcome differs from its
 * block's; not the points that only close their block. The counts of a run are these, so they can be held
 * against tap's own totals; the per-test ids stay one per leaf `t.test` (casesOf).
 */
export function tapCounts(points: readonly TapPoint[]): TestCounts {
  const c: TestCounts = { passed: 0, failed: 0, skipped: 0, total: 0 };
  const walk = (p: TapPoint): void => {
    p.children.forEach(walk);
    if (!countedByTap(p)) return;
    c[tapOutcome(p)]++;
    c.total++;
  };
  points.forEach(walk);
  return c;
}

/**
 * node-tap (`tap`): its TAP reporter to the report file; every top-level point is one test file. TAP on
 * stdout into the report file: tap 18 has --reporter-file, tap 16 and older refuse it (they have -o), both
 * print TAP with --reporter=tap. Counted as tap counts (tapCounts), identified per leaf `t.test`.
 */
export const nodeTapRunner = tapRunner('node-tap', 'tap', casesOf, tapCounts);
