import { describe, expect, it } from '@jest/globals';
import { assertionsKept } from '../../src/agent/verification/integrity/assertions.js';
import { gateDiff } from '../../src/agent/verification/gates/gate-diff.js';
import { testConfigKept } from '../../src/agent/verification/integrity/test-config.js';
import { ADD_LINE, editOf, MATH_SRC, MATH_TEST as JS, mathTest as js } from '../kit/verify-math.js';
import { changedRepo } from './git-repo.js';

const NODE_TEST = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { add } from '../src/math.js';
test('adds', () => {
  assert.equal(add(1, 2), 3);
});
`;
const PY = `from mathlib import add

def test_add():
    assert add(1, 2) == 3

class TestMore:
    def test_neg(self):
        assert add(-1, 1) == 0
`;
const SNAP = '// Jest Snapshot v1\n\nexports[`render 1`] = `"<b>3</b>"`;\n\nexports[`render 2`] = `"<i>4</i>"`;\n';
const py = editOf('tests/test_math.py', PY);
const nodeTest = editOf('test/node.test.mjs', NODE_TEST);

describe('test integrity from parsed code', () => {
  const BASE = {
    'src/math.js': MATH_SRC,
    'test/math.test.js': JS,
    'test/node.test.mjs': NODE_TEST,
    'tests/test_math.py': PY,
    'mathlib/__init__.py': 'def add(a, b):\n    return a + b\n',
    'test/__snapshots__/render.test.js.snap': SNAP,
    'test/helpers/data.json': '{"a":1}\n',
    'test/helpers/util.js': 'export function three() {\n  return 3;\n}\n',
  };
  /** The base repository (BASE, `base` files over it) with `files` changed, judged. */
  const judge = async (files: Record<string, string>, allowed: string[] = [], base: Record<string, string> = {}) => {
    const { root, baseSha } = changedRepo({ ...BASE, ...base }, files);
    return assertionsKept(root, baseSha, undefined, { allowed });
  };

  it.each([
    [
      'assertion wrapped in try/catch',
      js(ADD_LINE, '    try {\n      expect(add(1, 2)).toBe(3);\n    } catch (e) {}\n'),
      'test/math.test.js:4-6: assertion `expect(add(1, 2)).toBe(3)` wrapped in try',
    ],
    [
      'assertion moved into a switch case that the value never reaches',
      js(ADD_LINE, '    switch (add(1, 2)) {\n      case 4:\n        expect(add(1, 2)).toBe(3);\n    }\n'),
      'moved under a condition',
    ],
    ['python: assertion after an early return', py('def test_add():\n', 'def test_add():\n    return\n'), 'placed after an early return'],
    [
      'assertion moved into a conditional',
      js(ADD_LINE, '    if (add(1, 2) === 3) {\n      expect(add(1, 2)).toBe(3);\n    }\n'),
      'moved under a condition',
    ],
    [
      'assertion moved into an unawaited callback',
      js(ADD_LINE, '    setTimeout(() => expect(add(1, 2)).toBe(3), 0);\n'),
      'moved into a callback',
    ],
    [
      'an early return behind a condition',
      js("  it('multiplies', () => {\n", "  it('multiplies', () => {\n    if (Date.now() > 0) return;\n"),
      'placed after an early return',
    ],
    ['test.failing marker', js("it('adds'", "it.failing('adds'"), '`failing` marker added to test "math > adds"'],
    [
      'it.todo replaces a test',
      js("  it('multiplies', () => {\n    expect(mul(2, 3)).toBe(6);\n  });", "  it.todo('multiplies');"),
      '`todo` marker added to test "math > multiplies"',
    ],
    [
      'describe.skip skips every test inside',
      js("describe('math'", "describe.skip('math'"),
      '`skip` marker added to test "math > multiplies"',
    ],
    [
      'a variable aliasing skip',
      { 'test/math.test.js': `const { skip: later } = it;\n${JS.replace("it('adds'", "later('adds'")}` },
      '`skip` marker added to test "math > adds"',
    ],
    ['xit', js("it('adds'", "xit('adds'"), '`skip` marker added'],
    [
      'node:test skip via an options object',
      nodeTest("test('adds', () => {", "test('adds', { skip: 'flaky' }, () => {"),
      '`skip option` marker added to test "adds"',
    ],
    [
      'node:test options from a const',
      nodeTest("test('adds', () => {", "const opts = { todo: true };\ntest('adds', opts, () => {"),
      '`todo option` marker added',
    ],
    [
      'node:test t.skip() at runtime',
      nodeTest("test('adds', () => {", "test('adds', (t) => {\n  t.skip();"),
      '`runtime skip` marker added',
    ],
    [
      '.only on a new test deselects the rest',
      js("  it('multiplies'", "  it.only('zero', () => { expect(add(0, 0)).toBe(0); });\n  it('multiplies'"),
      'it deselects every other test',
    ],
    [
      'jest.mock of the module under test',
      { 'test/math.test.js': `jest.mock('../src/math.js', () => ({ add: () => 3, mul: () => 6 }));\n${JS}` },
      '`jest.mock` of `../src/math.js`, code under test',
    ],
    [
      'vi.mock of the module under test',
      { 'test/math.test.js': `vi.mock('../src/math', () => ({ add: () => 3 }));\n${JS}` },
      '`vi.mock` of `../src/math`',
    ],
    [
      'node:test mock.module',
      nodeTest("test('adds'", "mock.module('../src/math.js', { namedExports: { add: () => 3 } });\ntest('adds'"),
      '`mock.module` of `../src/math.js`',
    ],
    [
      'spyOn of the imported module',
      {
        'test/math.test.js': JS.replace(
          "import { add, mul } from '../src/math.js';",
          "import * as m from '../src/math.js';\nimport { add, mul } from '../src/math.js';",
        ).replace("  it('adds', () => {\n", "  it('adds', () => {\n    jest.spyOn(m, 'add').mockReturnValue(3);\n"),
      },
      '`jest.spyOn` of `../src/math.js#add`',
    ],
    [
      'matcher loosened (toEqual -> toBeTruthy)',
      js('expect(mul(2, 3)).toBe(6)', 'expect(mul(2, 3)).toBeTruthy()'),
      'matcher loosened from `toBe` to `toBeTruthy`',
    ],
    [
      'import swapped to a fake',
      js("'../src/math.js'", "'./fake.js'"),
      '`add` is now imported from `./fake.js` instead of `../src/math.js`',
    ],
    [
      'a global patched at load time',
      { 'test/math.test.js': `Number.prototype.valueOf = () => 3;\n${JS}` },
      'code added that runs when the tests load',
    ],
    ['a test renamed away', js("it('adds'", "it('adds (old)'"), 'test "math > adds" removed or renamed'],
    [
      'python: xfail decorator',
      py('def test_add', 'import pytest\n\n@pytest.mark.xfail\ndef test_add'),
      '`xfail` marker added to test "test_add"',
    ],
    [
      'python: skip alias',
      {
        'tests/test_math.py': `import unittest\nlater = unittest.skip("x")\n${PY.replace('    def test_neg', '    @later\n    def test_neg')}`,
      },
      'marker added to test "TestMore::test_neg"',
    ],
    ['python: assert loosened', py('assert add(1, 2) == 3', 'assert add(1, 2)'), 'matcher loosened from `assert ==` to `assert`'],
    [
      'python: assert in try/except',
      py('    assert add(1, 2) == 3\n', '    try:\n        assert add(1, 2) == 3\n    except AssertionError:\n        pass\n'),
      'wrapped in try',
    ],
    [
      'python: pytest.skip at runtime',
      py('    assert add(1, 2) == 3\n', '    pytest.skip("later")\n    assert add(1, 2) == 3\n'),
      'runtime pytest.skip',
    ],
    [
      'python: monkeypatch of in-repo code',
      py('def test_add():\n', 'def test_add(monkeypatch):\n    monkeypatch.setattr("mathlib.add", lambda a, b: 3)\n'),
      '`monkeypatch.setattr` of `mathlib.add`',
    ],
    [
      'python: conftest hook added',
      { 'tests/conftest.py': 'def pytest_collection_modifyitems(items):\n    items.clear()\n' },
      'hook added',
    ],
    [
      'snapshot rewritten as -u does',
      { 'test/__snapshots__/render.test.js.snap': SNAP.replace('<b>3</b>', '<b>2</b>') },
      'snapshot `render 1` rewritten',
    ],
    ['inline snapshot rewritten', js('expect(mul(2, 3)).toBe(6);', 'expect(mul(2, 3)).toMatchInlineSnapshot(`5`);'), undefined],
    ['fixture data changed', { 'test/helpers/data.json': '{"a":2}\n' }, 'test/helpers/data.json:1: test data/fixture changed'],
    [
      'helper code changed',
      { 'test/helpers/util.js': 'export function three() {\n  return 2;\n}\n' },
      'test helper code changed or removed',
    ],
    ['mock module changed', { 'src/__mocks__/math.js': 'export const add = () => 3;\n' }, 'mock module added (__mocks__)'],
  ])('integrity - %s fails and names the hunk', async (_what, files, expected) => {
    const r = await judge(files);
    expect(r.passed).toBe(false);
    if (expected) expect(r.detail).toContain(expected);
  });

  it.each([
    ['a new test added', js("  it('multiplies'", "  it('adds zero', () => {\n    expect(add(0, 0)).toBe(0);\n  });\n  it('multiplies'")],
    ['a stronger matcher', js('expect(add(1, 2)).toBe(3)', 'expect(add(1, 2)).toStrictEqual(3)')],
    [
      'an assertion and setup added to a test, comments and formatting changed',
      js(ADD_LINE, '    const x = 1; // one\n    expect(add(1, 2))\n      .toBe(3);\n    expect(add(x, 2)).toBe(3);\n'),
    ],
    [
      'a new import and a helper declaration',
      { 'test/math.test.js': `import { three } from './helpers/util.js';\nfunction twice(x) { return 2 * x; }\n${JS}` },
    ],
    [
      'a new fixture file and a new helper',
      {
        'test/helpers/more.json': '[1]\n',
        'test/helpers/util.js': 'export function three() {\n  return 3;\n}\nexport function four() {\n  return 4;\n}\n',
      },
    ],
    ['a new snapshot entry', { 'test/__snapshots__/render.test.js.snap': `${SNAP}\nexports[\`render 3\`] = \`"<u>5</u>"\`;\n` }],
    [
      'a python test added and an existing one extended',
      {
        'tests/test_math.py': `${PY.replace('    assert add(1, 2) == 3\n', '    assert add(1, 2) == 3\n    assert add(2, 2) == 4\n')}\ndef test_zero():\n    assert add(0, 0) == 0\n`,
      },
    ],
    [
      'the code under test changed',
      { 'src/math.js': 'export const add = (a, b) => Number(a) + Number(b);\nexport const mul = (a, b) => a * b;\n' },
    ],
  ])('integrity - %s passes', async (_what, files) => {
    const r = await judge(files);
    expect(r.detail).toMatch(/no assertion removed|no test file changed/);
    expect(r.passed).toBe(true);
  });

  it('integrity - toBeDefined strengthened to toEqual passes', async () => {
    // Strengthening: the base has the weak matcher, the change makes it strict.
    const r = await judge({ 'test/math.test.js': JS }, [], js('expect(mul(2, 3)).toBe(6)', 'expect(mul(2, 3)).toBeDefined()'));
    expect(r.detail).not.toContain('loosened');
    expect(r.passed).toBe(true);
  });

  it('integrity - gates.test_changes_allowed lets the agent change the listed support files, nothing else', async () => {
    const r = await judge(
      { 'test/helpers/data.json': '{"a":2}\n', 'test/helpers/util.js': 'export function three() {\n  return 2 + 1;\n}\n' },
      ['test/helpers/**'],
    );
    expect(r.passed).toBe(true);
    expect(r.detail).toContain('2 file(s) changed under gates.test_changes_allowed');
    const s = await judge({ 'test/helpers/data.json': '{"a":2}\n', ...js("it('adds'", "it.skip('adds'") }, ['test/helpers/**']);
    expect(s.passed).toBe(false);
  });

  it('integrity - fresh variants: skip via a computed options object, focus via an alias, a mock through require', async () => {
    const a = await judge(nodeTest("test('adds', () => {", "test('adds', { ...{ skip: true } }, () => {"));
    expect(a.detail).toContain('options spread (not resolvable)');
    const b = await judge({ 'test/math.test.js': `const focus = describe.only;\n${JS.replace("describe('math'", "focus('math'")}` });
    expect(b.passed).toBe(false);
    expect(b.detail).toContain('`only`');
    const c = await judge(js("  it('adds', () => {\n", "  it('adds', () => {\n    jest.doMock('../src/math.js');\n"));
    expect(c.detail).toContain('`jest.doMock` of `../src/math.js`');
    const d = await judge(js(ADD_LINE, '    add(1, 2) === 3 || expect(add(1, 2)).toBe(3);\n'));
    expect(d.detail).toContain('moved under a condition');
  });

  it('integrity - an expected assertion count lowered fails', async () => {
    const planned = NODE_TEST.replace("test('adds', () => {", "test('adds', (t) => {\n  t.plan(1);");
    const r = await judge({ 'test/node.test.mjs': planned.replace('t.plan(1)', 't.plan(0)') }, [], { 'test/node.test.mjs': planned });
    expect(r.detail).toContain('expected assertion count lowered or changed (1 → 0)');
  });

  it('integrity - a test file that no longer parses fails closed, saying so', async () => {
    const r = await judge({ 'test/math.test.js': `${JS}\n}}} (` });
    expect(r.passed).toBe(false);
    expect(r.detail).toContain('syntax error the parser could not read');
  });
});

describe('test-config-kept: what changes how the test process starts', () => {
  const judge = async (base: Record<string, string>, now: Record<string, string>, cmd = 'npm test') => {
    const { root, baseSha } = changedRepo({ 'package.json': '{"name":"x","scripts":{"test":"node --test"}}\n', ...base }, now);
    return testConfigKept(root, baseSha, await gateDiff(root, baseSha), cmd);
  };

  it('config - an .npmrc node-options preload fails with the hunk', async () => {
    const r = await judge({}, { '.npmrc': 'node-options=--require ./x.js\n', 'x.js': 'process.exitCode = 0;\n' });
    expect(r.passed).toBe(false);
    expect(r.detail).toContain('.npmrc:1: added: this file changes how the test process starts');
    expect(r.detail).toContain('+node-options=--require ./x.js');
  });

  it('config - a .env file and a babel config fail', async () => {
    const r = await judge({}, { '.env.test': 'NODE_OPTIONS=--import ./p.mjs\n', 'babel.config.js': 'module.exports = {};\n' });
    expect(r.changed.sort()).toEqual(['.env.test', 'babel.config.js']);
  });

  it('config - a setup file named by the jest config or the test command fails when changed', async () => {
    const base = {
      'jest.config.json': '{"setupFiles":["<rootDir>/test/setup.js"]}\n',
      'test/setup.js': 'globalThis.x = 1;\n',
      'scripts/pre.cjs': '1;\n',
    };
    const r = await judge(base, { 'test/setup.js': 'globalThis.x = 2;\n' });
    expect(r.passed).toBe(false);
    expect(r.detail).toContain(
      'test/setup.js:1: setup/preload file changed: the runner config or test command (jest.config.json) loads it',
    );
    const s = await judge(base, { 'scripts/pre.cjs': '2;\n' }, 'node -r ./scripts/pre.cjs --test');
    expect(s.detail).toContain('scripts/pre.cjs:1: setup/preload file changed: the runner config or test command (test.command)');
  });

  it('config - a spec file the test command or scripts.test names (`mocha tests.js`, `node --test test/a.js`) is a test, not a setup file; a --require preload still is', async () => {
    const pkg = (test: string) => `${JSON.stringify({ scripts: { test } })}\n`;
    const base = {
      'package.json': pkg('mocha tests.js'),
      'tests.js': "it('a', () => {});\n",
      'test/a.js': "test('a', () => {});\n",
      'setup.js': '1;\n',
    };
    expect((await judge(base, { 'tests.js': "it('a', () => {});\nit('b', () => {});\n" })).passed).toBe(true);
    expect((await judge(base, { 'test/a.js': "test('a', () => {});\ntest('b', () => {});\n" }, 'node --test test/a.js')).passed).toBe(true);
    const pre = await judge({ ...base, 'package.json': pkg('mocha --require setup.js tests.js') }, { 'setup.js': '2;\n' });
    expect(pre.detail).toContain('setup.js:1: setup/preload file changed');
  });
});
