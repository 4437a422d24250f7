import type { TestCounts } from '../../../events.js';
import { counts } from './types.js';
import { xmlTags } from './xml-tags.js';

interface Tally {
  passed: number;
  failed: number;
  skipped: number;
}

interface Suite {
  attrs: Record<string, string>;
  hasChildSuite: boolean;
  cases: Tally;
}

const num = (v: string | undefined): number | undefined => {
  const n = v === undefined ? NaN : Number(v.trim());
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : undefined;
};

/**
 * JUnit XML (surefire, jest-junit, pytest --junitxml, node --test-reporter=junit, go-junit-report, …).
 * Leaf `<testsuite>` elements count by their `tests`/`failures`/`errors`/`skipped` attributes (errors are
 * failures); a suite without a `tests` attribute, and `<testcase>`s outside any suite (node's reporter
 * puts top-level tests there), are counted case by case (`<failure>`/`<error>` → failed, `<skipped>` →
 * skipped). Undefined when the text holds no testsuite(s) or testcase at all.
 */
export function parseJunit(text: string): TestCounts | undefined {
  const tags = xmlTags(text);
  const suites: Suite[] = [];
  const stack: Suite[] = [];
  const orphan: Tally = { passed: 0, failed: 0, skipped: 0 };
  let root: Record<string, string> | undefined;
  let inCase: { suite: Suite | undefined; status: keyof Tally } | undefined;
  const closeCase = () => {
    if (!inCase) return;
    (inCase.suite?.cases ?? orphan)[inCase.status]++;
    inCase = undefined;
  };
  for (const t of tags) {
    if (t.name === 'testsuites' && t.kind !== 'close') root ??= t.attrs;
    if (t.name === 'testsuite') {
      if (t.kind === 'close') stack.pop();
      else {
        const s: Suite = { attrs: t.attrs, hasChildSuite: false, cases: { passed: 0, failed: 0, skipped: 0 } };
        const parent = stack[stack.length - 1];
        if (parent) parent.hasChildSuite = true;
        suites.push(s);
        if (t.kind === 'open') stack.push(s);
      }
    } else if (t.name === 'testcase') {
      closeCase();
      if (t.kind !== 'close') inCase = { suite: stack[stack.length - 1], status: 'passed' };
      if (t.kind === 'empty') closeCase();
    } else if (inCase && t.kind !== 'close') {
      if (t.name === 'failure' || t.name === 'error') inCase.status = 'failed';
      else if (t.name === 'skipped' && inCase.status === 'passed') inCase.status = 'skipped';
    }
  }
  closeCase();
  if (suites.length === 0 && orphan.passed + orphan.failed + orphan.skipped === 0) {
    const tests = num(root?.tests);
    if (root === undefined) return undefined;
    return tests === undefined ? counts(0, 0, 0) : fromAttrs(root);
  }
  const sum: TestCounts = counts(orphan.passed, orphan.failed, orphan.skipped);
  for (const s of suites) {
    const part = s.hasChildSuite
      ? counts(s.cases.passed, s.cases.failed, s.cases.skipped)
      : num(s.attrs.tests) !== undefined
        ? fromAttrs(s.attrs)
        : counts(s.cases.passed, s.cases.failed, s.cases.skipped);
    sum.passed += part.passed;
    sum.failed += part.failed;
    sum.skipped += part.skipped;
    sum.total += part.total;
  }
  return sum;
}

function fromAttrs(a: Record<string, string>): TestCounts {
  const tests = num(a.tests) ?? 0;
  const failed = (num(a.failures) ?? 0) + (num(a.errors) ?? 0);
  const skipped = num(a.skipped) ?? num(a.skip) ?? 0;
  return counts(Math.max(0, tests - failed - skipped), failed, skipped, tests);
}
