import type { TestCase, TestOutcome } from '../../../events.js';
import { parseJson, relFile, reportOf, testCase } from './report-util.js';
import { pythonFile } from './pytest.js';
import type { Runner, RunnerReport } from './types.js';

const FIXTURE = /^(?:setUpClass|setUpModule)$/;
const LINE = /^(\w+) \(([\w.]+)\)(?:\n.*)? \.\.\. (ok|FAIL|ERROR|skipped\b.*|expected failure|unexpected success)$/;

/** `pkg.mod.Class.test_x` → `pkg/mod.py > Class::test_x` (the module is the dotted path up to the first CamelCase part). */
function dottedCase(full: string, outcome: TestOutcome): TestCase {
  const parts = full.split('.');
  const cls = parts.findIndex((p) => /^[A-Z]/.test(p));
  const name = cls < 0 ? parts.slice(-1).join('.') : parts.slice(cls).join('::');
  return testCase(pythonFile(parts.slice(0, cls < 0 ? -1 : cls).join('.')), name, outcome);
}

interface ObservedTest {
  id?: unknown;
  file?: unknown;
  name?: unknown;
  outcome?: unknown;
}

/**
 * The python observer's report (`{"unittest": 1, "testsRun": N, "tests": [...]}`): one entry per test
 * the runner started (doctests and FunctionTestCases included; a test with subTests is one, failed
 * when one of them failed): the runner's own "Ran N", plus one failed entry per class/module fixture
 * error (unittest lists those under errors= but not in "Ran N"; the run failed). A fixture's skip
 * (setUpClass raising SkipTest) is not recorded: its tests never started and "Ran N" leaves it out, so a
 * green run counts exactly "Ran N". `file` is the test's source file when the observer knew
 * it, `name` its name in that file (`Class::test_x`, a doctest's `Class::method`); else the id is read as a dotted path.
 */
function observedReport(text: string, cwd: string): RunnerReport | undefined {
  const doc = parseJson(text) as { unittest?: unknown; tests?: unknown } | undefined;
  if (!doc || typeof doc !== 'object' || doc.unittest !== 1 || !Array.isArray(doc.tests)) return undefined;
  const tests = (doc.tests as ObservedTest[]).map((t) => {
    const o = t.outcome;
    const outcome: TestOutcome = o === 'passed' || o === 'skipped' ? o : 'failed';
    const id = typeof t.id === 'string' ? t.id : '';
    if (typeof t.name !== 'string' || !t.name) return dottedCase(id, outcome);
    const file = relFile(typeof t.file === 'string' ? t.file : undefined, cwd);
    return testCase(file, t.name, outcome);
  });
  return reportOf(tests);
}

/**
 * `python -m unittest -v`: one `name (dotted.path) ... ok|FAIL|ERROR|skipped …` line per test on
 * stderr, which the harness sends to the report file (what tests print to stdout stays out). Lines
 * after the first `=====` separator (failure details) are not read; a fixture's skip line is no test (as in
 * "Ran N"), a fixture's error line is one failed entry. An expected failure counts as skipped (never a
 * pass: the test failed, as marked; pytest's xfail is skipped too), an unexpected success as failed. A
 * report that starts with `{` is the python observer's
 * (every test the runner ran, which -v lines miss: a docstring's first line splits a test's line).
 */
export const unittestRunner: Runner = {
  name: 'unittest',
  source: 'runner-report',
  match: (w) => (w[0] && /^python(3(\.\d+)?)?$/.test(w[0].split('/').pop() ?? '') && w[1] === '-m' && w[2] === 'unittest' ? 3 : undefined),
  parse(text, cwd) {
    if (text.trimStart().startsWith('{')) return observedReport(text, cwd);
    const lines = text.replace(/\r\n?/g, '\n').split('\n');
    const end = lines.findIndex((l) => /^={20,}$/.test(l) || /^-{20,}$/.test(l));
    const body = end < 0 ? lines : lines.slice(0, end);
    if (!lines.some((l) => /^Ran \d+ tests? in /.test(l))) return undefined;
    // A test with a docstring prints its first line on a line of its own: `name (path)\nDoc line ... ok`.
    const joined: string[] = [];
    for (let i = 0; i < body.length; i++) {
      const l = body[i] ?? '';
      const next = body[i + 1];
      if (next !== undefined && /^\w+ \([\w.]+\)$/.test(l) && / \.\.\. /.test(next)) {
        joined.push(`${l}\n${next}`);
        i++;
      } else joined.push(l);
    }
    const tests = joined.flatMap((l) => {
      const m = LINE.exec(l);
      if (!m) return [];
      const dotted = m[2] ?? '';
      // Python ≥ 3.11 prints the full path (mod.Class.test); older ones the class path only.
      const full = dotted.endsWith(`.${m[1] ?? ''}`) ? dotted : `${dotted}.${m[1] ?? ''}`;
      const r = m[3] ?? '';
      // A class or module fixture's skip (`setUpClass (pkg.mod.Class) ... skipped`) is no test: "Ran N" leaves it out.
      if (r.startsWith('skipped') && FIXTURE.test(m[1] ?? '')) return [];
      return [dottedCase(full, r === 'ok' ? 'passed' : r.startsWith('skipped') || r === 'expected failure' ? 'skipped' : 'failed')];
    });
    return reportOf(tests);
  },
};
