/**
 * A test file is what the runner runs, whatever its name: a file the runners reported tests from (on the
 * base or in the run) is judged as a test by red-green and assertions-kept even when no test-file name
 * rule matches it. Seen on a real fix (vercel/ms: `mocha tests.js`, a root `tests.js`): `proofpr verify`
 * said "no test was added or changed" and failed red-green on the upstream fix.
 *
 * The cases, written by a rule before the mechanism: for two runners that report each test's file (mocha,
 * pytest given a file by path), a repository whose only test file has a name no name rule knows (`tests.js`
 * at the root; `checks/calc_checks.py`), and (a) the fix plus a new test there: verified, red-green ran the
 * new test red on the base; (b) no fix, the failing expectation there rewritten to what the code returns:
 * not verified, assertions-kept names the changed assertion.
 *
 * First try (before the mechanism): 2 of 4 as expected (the (a) cases: their tests.js was test material to
 * red-green; the (b) cases were unverified by the kept run, but assertions-kept never looked at the file).
 * The ms case differed: its package.json's test script names tests.js, which made it a test to one check
 * and nothing to the other. A third pair added after reading that (`npm test` running `mocha tests.js`):
 * first try 0 of 2 (red-green: "no test was added or changed"; assertions-kept blind). After: 6 of 6.
 * A seventh case from an independent review: a shipped module whose doctests pytest runs is reported as a
 * test file, and must stay code (its fix is no changed test): failed with the first version of the
 * mechanism ("test helper code changed"), passes now that shipped files stay code.
 * An eighth pair written after the mechanism, as a fresh case of the class: jest run on `*.check.js` by
 * its own testMatch; caught (both as expected) at the first run.
 */
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { runSettingsOf } from '../../src/run/run-settings.js';
import { finalCheckOf } from './final-check-kit.js';
import { makeRepo, write } from './git-repo.js';

interface Case {
  command: string;
  node?: boolean;
  base: Record<string, string>;
  fix: Record<string, string>;
  weakened: Record<string, string>;
  testFile: string;
}

const CASES: Record<string, Case> = {
  mocha: {
    command: 'node_modules/.bin/mocha tests.js',
    node: true,
    testFile: 'tests.js',
    base: {
      '.gitignore': 'node_modules\n',
      'package.json': '{ "name": "calc", "version": "1.0.0", "main": "index.js", "files": ["index.js"] }\n',
      'index.js': 'exports.add = (a, b) => a - b;\nexports.one = () => 1;\n',
      'tests.js': "const assert = require('assert');\nconst c = require('./index.js');\nit('one', () => assert.strictEqual(c.one(), 1));\n",
    },
    fix: {
      'index.js': 'exports.add = (a, b) => a + b;\nexports.one = () => 1;\n',
      'tests.js':
        "const assert = require('assert');\nconst c = require('./index.js');\nit('one', () => assert.strictEqual(c.one(), 1));\nit('adds', () => assert.strictEqual(c.add(2, 3), 5));\n",
    },
    weakened: {
      'tests.js':
        "const assert = require('assert');\nconst c = require('./index.js');\nit('one', () => assert.strictEqual(c.one(), 1));\nit('adds', () => assert.strictEqual(c.add(2, 3), -1));\n",
    },
  },
  pytest: {
    command: 'python3 -m pytest -q -p no:cacheprovider checks/calc_checks.py',
    testFile: 'checks/calc_checks.py',
    base: {
      'pyproject.toml': '[project]\nname = "calc"\nversion = "1.0.0"\n\n[tool.setuptools]\npackages = ["calc"]\n',
      'calc/__init__.py': 'def add(a, b):\n    return a - b\n\n\ndef one():\n    return 1\n',
      'checks/calc_checks.py': 'from calc import one\n\n\ndef test_one():\n    assert one() == 1\n',
    },
    fix: {
      'calc/__init__.py': 'def add(a, b):\n    return a + b\n\n\ndef one():\n    return 1\n',
      'checks/calc_checks.py':
        'from calc import add, one\n\n\ndef test_one():\n    assert one() == 1\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
    },
    weakened: {
      'checks/calc_checks.py':
        'from calc import add, one\n\n\ndef test_one():\n    assert one() == 1\n\n\ndef test_add():\n    assert add(2, 3) == -1\n',
    },
  },
};

const MOCHA = CASES.mocha as Case;
/** The mocha case's repository without its test file. */
const MOCHA_BASE = (): Record<string, string> => {
  const { 'tests.js': _tests, ...rest } = MOCHA.base;
  return rest;
};

/** Written after the mechanism, as a fresh case of the class: jest told by its config to run `*.check.js` files. */
CASES['jest (testMatch *.check.js)'] = {
  command: 'node_modules/.bin/jest --ci',
  node: true,
  testFile: 'lib/calc.check.js',
  base: {
    ...MOCHA_BASE(),
    'jest.config.cjs': "module.exports = { testMatch: ['**/*.check.js'] };\n",
    'lib/calc.check.js': "const c = require('../index.js');\ntest('one', () => expect(c.one()).toBe(1));\n",
  },
  fix: {
    'index.js': 'exports.add = (a, b) => a + b;\nexports.one = () => 1;\n',
    'lib/calc.check.js':
      "const c = require('../index.js');\ntest('one', () => expect(c.one()).toBe(1));\ntest('adds', () => expect(c.add(2, 3)).toBe(5));\n",
  },
  weakened: {
    'lib/calc.check.js':
      "const c = require('../index.js');\ntest('one', () => expect(c.one()).toBe(1));\ntest('adds', () => expect(c.add(2, 3)).toBe(-1));\n",
  },
};

/** The mocha case as `npm test` runs it: the package's test script names the file. */
CASES['npm test (mocha tests.js)'] = {
  ...MOCHA,
  command: 'npm test',
  base: {
    ...MOCHA.base,
    'package.json':
      '{ "name": "calc", "version": "1.0.0", "main": "index.js", "files": ["index.js"], "scripts": { "test": "mocha tests.js" } }\n',
  },
};

async function finalCheck(c: Case, change: Record<string, string>, base: Record<string, string> = {}) {
  const { root, baseSha } = makeRepo({ ...c.base, ...base });
  if (c.node) symlinkSync(join(process.cwd(), 'node_modules'), join(root, 'node_modules'), 'dir');
  for (const [p, t] of Object.entries(change)) write(root, p, t);
  const config = parseRepoConfig(`test:\n  command: ${c.command}\ngates:\n  red_green: true\nverify:\n  hunk_runs: 0\n`);
  return (await finalCheckOf(root, baseSha, runSettingsOf(config))).verdict;
}

const gate = (v: { gates: Array<{ name: string; passed: boolean; detail: string }> }, name: string) => v.gates.find((g) => g.name === name);

/** A shipped module pytest reports tests from (its doctests): it stays code, so a fix there is no changed test. */
const DOCTESTS: Case = {
  command: 'python3 -m pytest -q -p no:cacheprovider --doctest-modules calc checks/calc_checks.py',
  testFile: 'checks/calc_checks.py',
  base: {
    'pyproject.toml': '[project]\nname = "calc"\nversion = "1.0.0"\n\n[tool.setuptools]\npackages = ["calc"]\n',
    'calc/__init__.py': 'def add(a, b):\n    """\n    >>> add(2, 2)\n    4\n    """\n    return a * b\n',
    'checks/calc_checks.py': 'def test_nothing():\n    assert True\n',
  },
  fix: {
    'calc/__init__.py': 'def add(a, b):\n    """\n    >>> add(2, 2)\n    4\n    """\n    return a + b\n',
    'checks/calc_checks.py':
      'from calc import add\n\n\ndef test_nothing():\n    assert True\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
  },
  weakened: {},
};

describe('a test file is what the runner runs, whatever its name', () => {
  it('reported test files - a shipped module whose doctests pytest runs stays code: its fix is verified, no assertion changed', async () => {
    const v = await finalCheck(DOCTESTS, DOCTESTS.fix);
    expect(v.gates.filter((g) => !g.passed).map((g) => `${g.name}: ${g.detail}`)).toEqual([]);
    expect(gate(v, 'assertions-kept')?.detail).not.toContain('calc/__init__.py');
    expect(v.ok).toBe(true);
  }, 120_000);

  it.each(Object.keys(CASES))(
    'reported test files - %s: the fix and a new test in a file no name rule knows is verified, red-green ran',
    async (name) => {
      const c = CASES[name] as Case;
      const v = await finalCheck(c, c.fix);
      expect(v.gates.filter((g) => !g.passed).map((g) => `${g.name}: ${g.detail}`)).toEqual([]);
      expect(gate(v, 'red-green')?.detail).not.toMatch(/no test was added or changed/);
      expect(v.ok).toBe(true);
    },
    120_000,
  );

  it.each(Object.keys(CASES))(
    'reported test files - %s: an expectation rewritten there is a changed assertion',
    async (name) => {
      const c = CASES[name] as Case;
      // The test that fails on the base exists there: the change only rewrites its expectation.
      const v = await finalCheck(c, c.weakened, { [c.testFile]: c.fix[c.testFile] as string });
      expect(v.ok).toBe(false);
      expect(gate(v, 'assertions-kept')?.detail).toContain(c.testFile);
    },
    120_000,
  );
});
