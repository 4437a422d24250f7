import { reportOf, testCase } from './report-util.js';
import { pythonFile } from './pytest.js';
import type { Runner } from './types.js';

const LINE = /^(\w+) \(([\w.]+)\)(?:\n.*)? \.\.\. (ok|FAIL|ERROR|skipped\b.*|expected failure|unexpected success)$/;

/**
 * `python -m unittest -v`: one `name (dotted.path) ... ok|FAIL|ERROR|skipped …` line per test on
 * stderr, which the harness sends to the report file (what tests print to stdout stays out). Lines
 * after the first `=====` separator (failure details) are not read. An expected failure counts as
 * passed, an unexpected success as failed.
 */
export const unittestRunner: Runner = {
  name: 'unittest',
  source: 'runner-report',
  match: (w) => (w[0] && /^python(3(\.\d+)?)?$/.test(w[0].split('/').pop() ?? '') && w[1] === '-m' && w[2] === 'unittest' ? 3 : undefined),
  request: () => ({ args: ['-v'], stream: 'stderr' }),
  parse(text) {
    const lines = text.replace(/\r\n?/g, '\n').split('\n');
    const end = lines.findIndex((l) => /^={20,}$/.test(l) || /^-{20,}$/.test(l));
    const body = end < 0 ? lines : lines.slice(0, end);
    if (!lines.some((l) => /^Ran \d+ tests? in /.test(l))) return undefined;
    const tests = body.flatMap((l) => {
      const m = LINE.exec(l);
      if (!m) return [];
      const dotted = m[2] ?? '';
      // Python ≥ 3.11 prints the full path (mod.Class.test); older ones the class path only.
      const full = dotted.endsWith(`.${m[1] ?? ''}`) ? dotted : `${dotted}.${m[1] ?? ''}`;
      const r = m[3] ?? '';
      const outcome = r === 'ok' || r === 'expected failure' ? 'passed' : r.startsWith('skipped') ? 'skipped' : 'failed';
      const parts = full.split('.');
      const cls = parts.findIndex((p) => /^[A-Z]/.test(p));
      const name = cls < 0 ? parts.slice(-1).join('.') : parts.slice(cls).join('::');
      return [
        testCase(
          pythonFile(
            full
              .split('.')
              .slice(0, cls < 0 ? -1 : cls)
              .join('.'),
          ),
          name,
          outcome,
        ),
      ];
    });
    return reportOf(tests);
  },
};
