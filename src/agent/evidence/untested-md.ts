import { mdCode } from './markdown.js';
import type { Evidence } from './types.js';

/** At most this many untested hunks and flaky tests in the PR body; the evidence lists them all. */
const SHOWN = 30;

/**
 * The changed code no test exercises (evidence untestedHunks: its reversion changed no test's outcome) and
 * the flaky tests (evidence flaky: passed and failed on the same tree), for the reviewer. Neither changed
 * the verdict.
 */
export function untestedSection(ev: Evidence): string[] {
  const out: string[] = [];
  const hunks = ev.untestedHunks ?? [];
  if (hunks.length) {
    const items = hunks
      .slice(0, SHOWN)
      .map((h) => `- ${mdCode(h.file, 160, false)} lines ${h.startLine}${h.endLine !== h.startLine ? `–${h.endLine}` : ''}`);
    const more = hunks.length > SHOWN ? [`- and ${hunks.length - SHOWN} more (evidence.json, \`untestedHunks\`)`] : [];
    const which =
      ev.untestedHunksScope === 'changed tests'
        ? 'none of the tests in the test files the change added or changed noticed'
        : 'no test noticed';
    out.push(
      ev.untestedHunksScope === 'changed tests'
        ? '### No test of this change exercises these changes'
        : '### No test exercises these changes',
      '',
      `_Each was reverted on the tested commit and ${which}: a test that reaches it is missing, or the code is dead. Listed for review; the verdict does not depend on it._`,
      '',
      ...items,
      ...more,
    );
  }
  const flaky = ev.flaky ?? [];
  if (flaky.length) {
    const items = flaky
      .slice(0, SHOWN)
      .map((f) => `- ${mdCode(f.test, 200, false)}: failed ${f.failures} of ${f.runs} runs of the same tree`);
    const more = flaky.length > SHOWN ? [`- and ${flaky.length - SHOWN} more (evidence.json, \`flaky\`)`] : [];
    if (out.length) out.push('');
    out.push(
      '### Flaky tests',
      '',
      '_Passed and failed on the same tree: neither a failure the change must fix nor a regression._',
      '',
      ...items,
      ...more,
    );
  }
  return out;
}
