import { z } from 'zod';
import type { TestOutcome } from '../../../events.js';
import { binName, parseJson, relFile, reportOf, testCase } from './report-util.js';
import type { Runner } from './types.js';

const test = z.object({
  fullTitle: z.string(),
  file: z.string().optional(),
  err: z.record(z.string(), z.unknown()).optional(),
  state: z.string().optional(),
});
const shape = z.object({ stats: z.object({ tests: z.number() }), tests: z.array(test), pending: z.array(test), failures: z.array(test) });

/**
 * Mocha's json reporter shape: `tests` holds every test that ran, in order; a pending one is skipped, one
 * with an error failed. A failure that is no test (a hook's) is one failed test more. Two tests with one
 * title in one file are two tests, as mocha counts them (`N passing`): the second's id gets ` (2)`.
 * Written by the harness's own reporter module (mocha-reporter.ts), which works with every mocha version.
 */
export const mochaRunner: Runner = {
  name: 'mocha',
  source: 'runner-report',
  match: (w) => (binName(w[0]) === 'mocha' || binName(w[0]) === '_mocha' ? 1 : undefined),
  parse(text, cwd) {
    const r = shape.safeParse(parseJson(text));
    if (!r.success) return undefined;
    const key = (t: z.infer<typeof test>) => `${t.file ?? ''}\0${t.fullTitle}`;
    const pending = new Set(r.data.pending.map(key));
    const failed = new Set(r.data.failures.map(key));
    const inTests = new Set(r.data.tests.map(key));
    const all = [...r.data.tests, ...r.data.failures.filter((t) => !inTests.has(key(t)))];
    const times = new Map<string, number>();
    // Each test's own state when the report has it (two tests with one title may differ), else by title.
    const outcomeOf = (t: z.infer<typeof test>): TestOutcome => {
      if (Object.keys(t.err ?? {}).length > 0 || t.state === 'failed') return 'failed';
      if (t.state === 'pending') return 'skipped';
      if (t.state === 'passed') return 'passed';
      return failed.has(key(t)) ? 'failed' : pending.has(key(t)) ? 'skipped' : 'passed';
    };
    return reportOf(
      all.map((t) => {
        const n = (times.get(key(t)) ?? 0) + 1;
        times.set(key(t), n);
        return testCase(relFile(t.file, cwd), n > 1 ? `${t.fullTitle} (${n})` : t.fullTitle, outcomeOf(t));
      }),
    );
  },
};
