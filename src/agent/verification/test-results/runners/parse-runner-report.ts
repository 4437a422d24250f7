import type { TestCase } from '../../../events.js';
import type { Runner, RunnerReport } from './types.js';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` with every absolute path under one of `roots` made relative to it (`file://` URLs too):
 * `/tmp/checkout-1/test/helpers/a.js` → `test/helpers/a.js`, the root itself → `.`. Longer roots
 * first, so a root inside another is not half-replaced.
 */
export function relativeToRoots(text: string, roots: readonly string[]): string {
  let out = text;
  for (const root of [...new Set(roots)].filter((r) => r.length > 1).sort((a, b) => b.length - a.length)) {
    const r = root.replace(/\/+$/, '');
    out = out.replace(new RegExp(`(?:file://)?${escape(r)}(?:/|(?![\\w.-]))`, 'g'), (m) => (m.endsWith('/') ? '' : '.'));
  }
  return out;
}

function normalised(t: TestCase, roots: readonly string[]): TestCase {
  const id = relativeToRoots(t.id, roots);
  const file = t.file === undefined ? undefined : relativeToRoots(t.file, roots);
  return { ...t, id, ...(file !== undefined ? { file } : {}) };
}

/**
 * The runner's report with test ids and files independent of where the checkout is: the baseline
 * and the final run use different temporary checkouts, and some reports carry absolute paths in
 * test names (node:test names a helper file without tests by its absolute path; a name built from
 * `__dirname`, a parametrised pytest id holding a path). Ids that differ only in that folder would
 * read as tests that disappeared. `roots` are the checkout's paths (as given and its realpath).
 */
export function parseRunnerReport(runner: Runner, text: string, roots: readonly string[]): RunnerReport | undefined {
  const [cwd] = roots;
  if (cwd === undefined) return runner.parse(text, '/');
  const report = runner.parse(text, roots.at(-1) ?? cwd);
  if (!report) return undefined;
  return { ...report, tests: report.tests.map((t) => normalised(t, roots)) };
}
