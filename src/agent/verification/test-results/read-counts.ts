import { isAbsolute, join } from 'node:path';
import type { CountSource, TestCounts } from '../../events.js';
import { parseReport } from './parse-report.js';
import { parseTestOutput } from './parse-test-output.js';

export interface ReadCounts {
  counts: TestCounts | null;
  source: CountSource;
  reportPath?: string;
  runner?: string;
}

/**
 * A test run's counts: from `test.report` when configured and written by this run (modified between
 * `startedAtMs` and `endedAtMs`), else from the runner's summary lines (source 'tap' for TAP output), else unknown (null, source 'none').
 */
export function readCounts(opts: {
  root: string;
  report?: string | undefined;
  startedAtMs: number;
  endedAtMs?: number;
  output: string;
}): ReadCounts {
  if (opts.report) {
    const path = isAbsolute(opts.report) ? opts.report : join(opts.root, opts.report);
    const r = parseReport(path, opts.startedAtMs, opts.endedAtMs);
    if (r) return { counts: r.counts, source: r.source, reportPath: opts.report };
  }
  const s = parseTestOutput(opts.output);
  if (s) return { counts: s.counts, source: s.runner === 'tap' ? 'tap' : 'summary-line', runner: s.runner };
  return { counts: null, source: 'none' };
}
