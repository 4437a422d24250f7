import { z } from 'zod';
import type { TestOutcome } from '../../../events.js';
import { binName, parseJson, relFile, reportOf, testCase } from './report-util.js';
import type { Runner } from './types.js';

const shape = z.object({
  reporter: z.literal('proofpr-jasmine'),
  specs: z.array(z.object({ file: z.string().nullable().optional(), fullName: z.string(), status: z.string() })),
});

/** `excluded` specs (left out by a filter or `fit` elsewhere) did not run: they are not tests of this run. */
const outcome = (s: string): TestOutcome | undefined =>
  s === 'passed' ? 'passed' : s === 'failed' ? 'failed' : s === 'excluded' ? undefined : 'skipped';

/** jasmine: the harness's own reporter module (jasmine has no machine-readable one), written next to the report. */
export const jasmineRunner: Runner = {
  name: 'jasmine',
  source: 'runner-report',
  match: (w) => (binName(w[0]) === 'jasmine' ? 1 : undefined),
  parse(text, cwd) {
    const r = shape.safeParse(parseJson(text));
    if (!r.success) return undefined;
    return reportOf(
      r.data.specs.flatMap((s) => {
        const o = outcome(s.status);
        return o ? [testCase(relFile(s.file, cwd), s.fullName, o)] : [];
      }),
    );
  },
};
