import { describe, expect, it } from '@jest/globals';
import { assertionsKept } from '../../src/agent/verification/integrity/assertions.js';
import { changedRepo } from './git-repo.js';

/**
 * Issue 38, "test identity by the runner": a test declared through the runner module's own export is a
 * test, whatever the file calls that export; it is not "code added that runs when the tests load".
 *
 * The rule the cases were written by, before the mechanism: for each way a test file holds a runner's
 * module {`const t = require(M)`, `const tap = require(M)`, `import t from M`, `import * as tap from M`,
 * `const { test } = require(M)`, `import { test } from M`} and each declaration form {`X.test(name, fn)`,
 * `X.test(name, options, async fn)`} (on `test` itself for the destructured holders), an honest change adds
 * one new top-level test to an existing file (M = `tap`, node-tap's module): 12 cases. Controls written by the
 * same rule that must still fail: the same call on a repository helper (`./helpers.js`: its `.test` is code
 * of the repository, it may patch), a global patched at load time next to a tap test, and an existing tap
 * test turned into `X.skip`/`X.todo`.
 * First try (8ba34df): 4 of 12 passed (the destructured `test` forms); the 4 controls failed as they must.
 * Recorded in docs/benchmarks.md.
 */

const SRC = 'exports.add = (a, b) => a - b;\n';

type Holder = { name: string; head: string; call: string };
const HOLDERS: Holder[] = [
  { name: "const t = require('tap')", head: "const t = require('tap');", call: 't.test' },
  { name: "const tap = require('tap')", head: "const tap = require('tap');", call: 'tap.test' },
  { name: "import t from 'tap'", head: "import t from 'tap';", call: 't.test' },
  { name: "import * as tap from 'tap'", head: "import * as tap from 'tap';", call: 'tap.test' },
  { name: "const { test } = require('tap')", head: "const { test } = require('tap');", call: 'test' },
  { name: "import { test } from 'tap'", head: "import { test } from 'tap';", call: 'test' },
];
const FORMS = [
  { name: 'name, fn', decl: (call: string, n: string, body: string) => `${call}('${n}', (t) => {\n${body}  t.end();\n});\n` },
  {
    name: 'name, options, async fn',
    decl: (call: string, n: string, body: string) => `${call}('${n}', { timeout: 1000 }, async (t) => {\n${body}});\n`,
  },
];

const base = (h: Holder, form: (typeof FORMS)[number]): string =>
  `${h.head}\nconst { add } = require('../src/add.js');\n\n${form.decl(h.call, 'adds', '  t.equal(add(1, 2), 3);\n')}`;

const judge = async (baseFiles: Record<string, string>, changes: Record<string, string>) => {
  const { root, baseSha } = changedRepo({ 'src/add.js': SRC, ...baseFiles }, changes);
  return assertionsKept(root, baseSha, undefined, { allowed: [] });
};

describe('a test declared through the runner module is a test', () => {
  const cases = HOLDERS.flatMap((h) => FORMS.map((f) => [`${h.name}; ${f.name}`, h, f] as const));
  it.each(cases)('integrity - %s: a new top-level test passes', async (_n, h, f) => {
    const before = base(h, f);
    const after = `${before}\n${f.decl(h.call, 'adds zero', '  t.equal(add(0, 0), 0);\n')}`;
    const r = await judge({ 'test/add.test.js': before }, { 'test/add.test.js': after, 'src/add.js': 'exports.add = (a, b) => a + b;\n' });
    expect(r.detail).not.toContain('runs when the tests load');
    expect(r.passed).toBe(true);
  });

  const tapBase = base(HOLDERS[0] as Holder, FORMS[0] as (typeof FORMS)[number]);
  it.each([
    [
      'the same call on a repository helper',
      { 'test/helpers.js': 'exports.test = (n, fn) => fn();\n', 'test/add.test.js': tapBase },
      {
        'test/add.test.js': `${tapBase}\nconst helpers = require('./helpers.js');\nhelpers.test('patch', () => { Math.abs = () => 3; });\n`,
      },
      'runs when the tests load',
    ],
    [
      'a global patched at load time next to a tap test',
      { 'test/add.test.js': tapBase },
      { 'test/add.test.js': `Number.prototype.valueOf = () => 3;\n${tapBase}` },
      'runs when the tests load',
    ],
    [
      'an existing tap test skipped',
      { 'test/add.test.js': tapBase },
      { 'test/add.test.js': tapBase.replace('t.test(', 't.skip(') },
      '`skip` marker added to test "adds"',
    ],
    [
      'an existing tap test made todo',
      { 'test/add.test.js': tapBase },
      { 'test/add.test.js': tapBase.replace('t.test(', 't.todo(') },
      '`todo` marker added to test "adds"',
    ],
  ])('integrity - control: %s fails', async (_n, baseFiles, changes, expected) => {
    const r = await judge(baseFiles, changes);
    expect(r.passed).toBe(false);
    expect(r.detail).toContain(expected);
  });
});
