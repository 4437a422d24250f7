import { describe, expect, it } from '@jest/globals';
import { runnerNamed } from '../../src/agent/verification/test-results/runners/index.js';
import { parseRunnerReport, relativeToRoots } from '../../src/agent/verification/test-results/runners/parse-runner-report.js';
import { harnessRun } from '../kit/verify-harness.js';
import { makeRepo } from './git-repo.js';

const runner = (name: string) => {
  const r = runnerNamed(name);
  if (!r) throw new Error(`no runner ${name}`);
  return r;
};
const idsAt = (name: string, report: (root: string) => string, root: string) =>
  parseRunnerReport(runner(name), report(root), [root])?.tests.map((t) => [t.id, t.file ?? null]);

describe('runner reports - ids do not depend on where the checkout is', () => {
  it('relativeToRoots: paths under the root become relative, the root itself ".", a sibling folder stays', () => {
    expect(relativeToRoots('/tmp/c1/test/helpers/a.js', ['/tmp/c1'])).toBe('test/helpers/a.js');
    expect(relativeToRoots('reads file:///tmp/c1/data/x.txt > ok', ['/tmp/c1/'])).toBe('reads data/x.txt > ok');
    expect(relativeToRoots('runs in /tmp/c1', ['/tmp/c1'])).toBe('runs in .');
    expect(relativeToRoots('/tmp/c10/a.js', ['/tmp/c1'])).toBe('/tmp/c10/a.js');
    // The realpath and the path as given both count; the longer one first.
    expect(relativeToRoots('/private/tmp/c1/a.js and /tmp/c1/b.js', ['/tmp/c1', '/private/tmp/c1'])).toBe('a.js and b.js');
  });

  // Reports shaped as each runner writes them, with the checkout's absolute path where a real project
  // can put it (a test named after __dirname / __filename, a parametrised id holding a path).
  const reports: Record<string, (root: string) => string> = {
    jest: (root) =>
      JSON.stringify({
        numTotalTests: 1,
        testResults: [
          {
            name: `${root}/test/a.test.js`,
            assertionResults: [{ fullName: `loads ${root}/fixtures/x.json`, title: 't', status: 'passed' }],
          },
        ],
      }),
    vitest: (root) =>
      JSON.stringify({
        numTotalTests: 1,
        testResults: [
          {
            name: `${root}/test/a.test.ts`,
            assertionResults: [{ title: `reads ${root}/data`, ancestorTitles: ['suite'], status: 'failed' }],
          },
        ],
      }),
    mocha: (root) =>
      JSON.stringify({
        stats: { tests: 1 },
        tests: [{ fullTitle: `opens ${root}/db.sqlite`, file: `${root}/test/a.spec.js`, err: {} }],
        pending: [],
        failures: [],
      }),
    'node-test': (root) =>
      `<?xml version="1.0" encoding="utf-8"?>\n<testsuites>\n\t<testcase name="${root}/test/helpers/assertThrows.js" time="0.1" classname="test"/>\n\t<testsuite name="${root}/test/a.js"><testcase name="ok" classname="test"/></testsuite>\n</testsuites>\n`,
    pytest: (root) =>
      `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="1"><testcase classname="tests.test_io" name="test_read[${root}/data/a.txt]" file="${root}/tests/test_io.py"/></testsuite></testsuites>\n`,
    go: (root) =>
      [
        `{"Action":"run","Package":"example.com/m","Test":"TestDir/${root}/testdata"}`,
        `{"Action":"pass","Package":"example.com/m","Test":"TestDir/${root}/testdata"}`,
      ].join('\n'),
  };

  for (const [name, report] of Object.entries(reports)) {
    it(`${name}: the same report from two checkouts gives the same ids, with no checkout path in them`, () => {
      const a = idsAt(name, report, '/tmp/proofpr-final-a1b2');
      const b = idsAt(name, report, '/tmp/proofpr-baseline-c3d4');
      expect(a?.length).toBeGreaterThan(0);
      expect(a).toEqual(b);
      expect(JSON.stringify(a)).not.toContain('/tmp/');
    });
  }

  it('node-test: the helper file without tests is named relative to the checkout', () => {
    expect(idsAt('node-test', reports['node-test']!, '/tmp/c1')?.map(([id]) => id)).toEqual([
      'test/helpers/assertThrows.js',
      'test/a.js > ok',
    ]);
  });

  it('node --test for real, in two checkouts of one commit: a helper file under test/ gives the same ids in both', async () => {
    const files = {
      'test/helpers/assert-two.js': "const assert = require('node:assert');\nexports.two = (v) => assert.strictEqual(v, 2);\n",
      'test/a.js':
        "const { test } = require('node:test');\nconst { two } = require('./helpers/assert-two.js');\ntest('one plus one', () => two(1 + 1));\n",
    };
    const ids: string[][] = [];
    for (let i = 0; i < 2; i++) {
      const run = await harnessRun(makeRepo(files).root, 'node --test');
      ids.push((run.tests ?? []).map((t) => t.id).sort());
    }
    expect(ids[0]).toEqual(ids[1]);
    expect(ids[0]).toContain('one plus one');
    expect(ids[0]?.some((id) => id.startsWith('/'))).toBe(false);
  });
});
