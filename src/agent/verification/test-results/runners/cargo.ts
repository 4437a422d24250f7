import type { TestCase } from '../../../events.js';
import { reportOf, testCase } from './report-util.js';
import type { Runner } from './types.js';

const RESULT = /^test (.+?) \.\.\. (ok|FAILED|ignored(?:, .*)?)$/;

/**
 * `cargo test` (libtest's `--format json` is unstable): stdout and stderr go to the report file, in
 * order. Per target (`Running unittests src/lib.rs`, `Doc-tests x`), the `test <name> ... ok|FAILED|
 * ignored` lines between `running N tests` and `test result:` count, and nothing in the `failures:`
 * section (where captured test output is shown). `--no-fail-fast` so one failing target does not
 * hide the others. Id: `<target> > <test path>` (a doc-test's without its line number).
 */
export const cargoRunner: Runner = {
  name: 'cargo',
  source: 'runner-report',
  match: (w) => (w[0]?.split('/').pop() === 'cargo' && w[1] === 'test' ? 2 : undefined),
  parse(text) {
    const tests: TestCase[] = [];
    let target = '';
    let inList = false;
    let sawRun = false;
    for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
      const line = raw.trimEnd();
      const run = /^\s+Running (\S+(?: \S+)?) \(/.exec(line) ?? /^\s+Running (\S+)$/.exec(line);
      const doc = /^\s+Doc-tests (\S+)/.exec(line);
      if (run || doc) {
        target = run ? (run[1] ?? '') : `doc-tests ${doc?.[1] ?? ''}`;
        inList = false;
        continue;
      }
      if (/^running \d+ tests?$/.test(line)) {
        inList = true;
        sawRun = true;
        continue;
      }
      if (/^test result: /.test(line) || line === 'failures:' || line === 'successes:') {
        inList = false;
        continue;
      }
      const m = inList ? RESULT.exec(line) : null;
      if (!m) continue;
      const r = m[2] ?? '';
      // A doc-test is named by its line (`src/lib.rs - f (line 177)`), which moves when code above it changes.
      const name = (m[1] ?? '').replace(/ \(line \d+\)$/, '');
      tests.push(testCase(target || undefined, name, r === 'ok' ? 'passed' : r === 'FAILED' ? 'failed' : 'skipped'));
    }
    return sawRun ? reportOf(tests) : undefined;
  },
};
