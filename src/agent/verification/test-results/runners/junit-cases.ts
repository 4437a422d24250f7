import type { TestOutcome } from '../../../events.js';
import { xmlTags } from '../parsers/xml-tags.js';

export interface JunitCase {
  /** Names of the enclosing `<testsuite>`s, outermost first. */
  suites: string[];
  attrs: Record<string, string>;
  outcome: TestOutcome;
}

/**
 * Every `<testcase>` of a JUnit XML report with its enclosing suites: `<failure>`/`<error>` → failed,
 * `<skipped>` → skipped. Undefined when the text has no `<testsuites>`/`<testsuite>` root (not JUnit).
 */
export function junitCases(text: string): JunitCase[] | undefined {
  const tags = xmlTags(text);
  if (!tags.some((t) => t.name === 'testsuites' || t.name === 'testsuite')) return undefined;
  const stack: string[] = [];
  const out: JunitCase[] = [];
  let open: JunitCase | undefined;
  for (const t of tags) {
    if (t.name === 'testsuite') {
      if (t.kind === 'open') stack.push(t.attrs.name ?? '');
      else if (t.kind === 'close') stack.pop();
    } else if (t.name === 'testcase') {
      if (t.kind === 'close') open = undefined;
      else {
        const c: JunitCase = { suites: [...stack], attrs: t.attrs, outcome: 'passed' };
        out.push(c);
        open = t.kind === 'open' ? c : undefined;
      }
    } else if (open && t.kind !== 'close') {
      if (t.name === 'failure' || t.name === 'error') open.outcome = 'failed';
      else if (t.name === 'skipped' && open.outcome === 'passed') open.outcome = 'skipped';
    }
  }
  return out;
}
