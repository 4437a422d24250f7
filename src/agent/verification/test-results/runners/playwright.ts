import type { TestCase, TestOutcome } from '../../../events.js';
import { parseJson, reportOf, testCase } from './report-util.js';
import type { Runner } from './types.js';

interface Spec {
  title: string;
  file?: string;
  tests?: Array<{ status?: string; projectName?: string }>;
}
interface Suite {
  title?: string;
  file?: string;
  specs?: Spec[];
  suites?: Suite[];
}

/** `expected` passed, `unexpected` failed, `flaky` passed on a retry, `skipped` skipped. */
const outcome = (s: string | undefined): TestOutcome =>
  s === 'expected' || s === 'flaky' ? 'passed' : s === 'skipped' ? 'skipped' : 'failed';

function walk(s: Suite, path: string[], file: string | undefined, out: TestCase[]): void {
  const f = s.file ?? file;
  for (const sp of s.specs ?? []) {
    for (const t of sp.tests ?? []) {
      const project = t.projectName ? [`[${t.projectName}]`] : [];
      out.push(testCase(sp.file ?? f, [...project, ...path, sp.title].join(' > '), outcome(t.status)));
    }
  }
  for (const c of s.suites ?? []) walk(c, [...path, c.title ?? ''], f, out);
}

/** Playwright test's json reporter (PLAYWRIGHT_JSON_OUTPUT_NAME): one test per spec and project. */
export const playwrightRunner: Runner = {
  name: 'playwright',
  source: 'runner-report',
  match: (w) => (w[0]?.split('/').pop() === 'playwright' && w[1] === 'test' ? 2 : undefined),
  parse(text) {
    const raw = parseJson(text) as { suites?: unknown; stats?: unknown } | undefined;
    if (!raw || typeof raw !== 'object' || !Array.isArray(raw.suites) || typeof raw.stats !== 'object') return undefined;
    const out: TestCase[] = [];
    // Top-level suites are files: their title is the file name, not part of the test's name.
    for (const s of raw.suites as Suite[]) walk({ ...s, title: '' }, [], s.file, out);
    return reportOf(out);
  },
};
