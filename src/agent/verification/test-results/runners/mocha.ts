import { z } from 'zod';
import { binName, parseJson, relFile, reportOf, testCase } from './report-util.js';
import type { Runner } from './types.js';

const test = z.object({ fullTitle: z.string(), file: z.string().optional(), err: z.record(z.string(), z.unknown()).optional() });
const shape = z.object({ stats: z.object({ tests: z.number() }), tests: z.array(test), pending: z.array(test), failures: z.array(test) });

/**
 * Mocha's json reporter shape: `tests` holds every test; a pending one is skipped, one with an error failed.
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
    const seen = new Set<string>();
    const all = [...r.data.tests, ...r.data.failures.filter((t) => !r.data.tests.some((x) => key(x) === key(t)))];
    return reportOf(
      all.flatMap((t) => {
        if (seen.has(key(t))) return [];
        seen.add(key(t));
        const out = failed.has(key(t)) || Object.keys(t.err ?? {}).length > 0 ? 'failed' : pending.has(key(t)) ? 'skipped' : 'passed';
        return [testCase(relFile(t.file, cwd), t.fullTitle, out)];
      }),
    );
  },
};
