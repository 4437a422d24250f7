import type { TestCase, TestOutcome } from '../../events.js';
import { reportOf, testCase } from './report-util.js';
import type { Runner } from './types.js';

interface Event {
  Action?: string;
  Package?: string;
  Test?: string;
}

/**
 * `go test -json` (stdout to the report file): a test counts only when it had a `run` event (a test
 * printing `--- PASS: Fake` makes older test2json emit a pass for a test that never ran), and only
 * leaves count: a test with subtests is their parent, not another test. Id: `<package> > <Test/sub>`.
 */
export const goTestRunner: Runner = {
  name: 'go',
  source: 'runner-report',
  match: (w) => (w[0]?.split('/').pop() === 'go' && w[1] === 'test' ? 2 : undefined),
  request: () => ({ args: ['-json'], afterProgram: true, stream: 'stdout' }),
  parse(text) {
    const ran = new Set<string>();
    const result = new Map<string, TestOutcome>();
    let events = 0;
    for (const line of text.split('\n')) {
      if (!line.startsWith('{')) continue;
      let e: Event;
      try {
        e = JSON.parse(line) as Event;
      } catch {
        continue;
      }
      events++;
      if (!e.Test || !e.Package) continue;
      const key = `${e.Package} > ${e.Test}`;
      if (e.Action === 'run') ran.add(key);
      else if (e.Action === 'pass' || e.Action === 'fail' || e.Action === 'skip') {
        if (ran.has(key)) result.set(key, e.Action === 'pass' ? 'passed' : e.Action === 'fail' ? 'failed' : 'skipped');
      }
    }
    if (events === 0) return undefined;
    const keys = [...ran];
    const tests: TestCase[] = keys
      .filter((k) => !keys.some((o) => o.startsWith(`${k}/`)))
      // A test that started and never ended (a panic, a timeout) failed.
      .map((k) => testCase(undefined, k, result.get(k) ?? 'failed'));
    return reportOf(tests);
  },
};
