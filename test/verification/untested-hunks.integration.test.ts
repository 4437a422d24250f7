/**
 * Issue 40, "Untested hunks": each changed hunk of shipped code is reverted alone on a clean checkout of
 * the tested commit and the test command runs there; a hunk whose reversion no test notices is listed,
 * the extra runs are counted and bounded by verify.hunk_runs, and the verdict never changes.
 *
 * The cases, written by a rule before the mechanism: for each runner (node --test, pytest, go test), a
 * change with (a) one dead hunk (a new function no test calls, in its own hunk) beside a fix the new test
 * exercises: exactly the dead hunk is listed; (b) every hunk exercised (the fix and its test only): none is
 * listed; (c) more hunks than verify.hunk_runs (five new functions, each its own hunk, over two files, hunk_runs 2): at most 2
 * runs, grouped by file, and the dead file's hunks listed while the exercised file's are not.
 *
 * First try (before the mechanism: no check ran, no list): 3 of 9 cases as expected (the (b) cases, which
 * expect an empty list, and nothing else). After: 9 of 9. docs/benchmarks.md records the figures and runs.
 */
import { describe, expect, it } from '@jest/globals';
import { buildEvidence } from '../../src/agent/evidence/evidence.js';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { runSettingsOf } from '../../src/run/run-settings.js';
import { finalCheckOf } from './final-check-kit.js';
import { makeRepo, write } from './git-repo.js';

interface Fixture {
  command: string;
  base: Record<string, string>;
  /** The fix and its test: every hunk exercised. */
  fix: Record<string, string>;
  /** The fix, its test, and a dead function in its own hunk (the lines named). */
  dead: { files: Record<string, string>; hunk: { file: string; startLine: number; endLine: number } };
  /** Five functions over two files: one file's are all called by a test, the other's none. */
  many: { base: Record<string, string>; files: Record<string, string>; deadFile: string };
}

const pad = (n: number, c: string) => Array.from({ length: n }, (_, i) => `${c} filler ${i}`).join('\n');

const NODE: Fixture = {
  command: 'node --test',
  base: {
    'src/math.mjs': `export const add = (a, b) => a - b;\n${pad(8, '//')}\nexport const one = 1;\n`,
    'test/math.test.mjs':
      "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { one } from '../src/math.mjs';\ntest('one', () => assert.strictEqual(one, 1));\n",
  },
  fix: {
    'src/math.mjs': `export const add = (a, b) => a + b;\n${pad(8, '//')}\nexport const one = 1;\n`,
    'test/add.test.mjs':
      "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../src/math.mjs';\ntest('add', () => assert.strictEqual(add(2, 2), 4));\n",
  },
  dead: {
    files: {
      'src/math.mjs': `export const add = (a, b) => a + b;\n${pad(8, '//')}\nexport const one = 1;\nexport function neverCalled(x) {\n  return x * 42;\n}\n`,
      'test/add.test.mjs':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../src/math.mjs';\ntest('add', () => assert.strictEqual(add(2, 2), 4));\n",
    },
    hunk: { file: 'src/math.mjs', startLine: 11, endLine: 13 },
  },
  many: {
    base: { 'src/used.mjs': '// a\n// b\n// c\n', 'src/unused.mjs': '// a\n// b\n' },
    files: {
      'src/used.mjs': 'export const f1 = () => 1;\n// a\nexport const f2 = () => 2;\n// b\nexport const f3 = () => 3;\n// c\n',
      'src/unused.mjs': 'export const g1 = () => 1;\n// a\nexport const g2 = () => 2;\n// b\n',
      'test/used.test.mjs':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { f1, f2, f3 } from '../src/used.mjs';\ntest('used', () => assert.strictEqual(f1() + f2() + f3(), 6));\n",
    },
    deadFile: 'src/unused.mjs',
  },
};

const PY: Fixture = {
  command: 'python3 -m pytest -q -p no:cacheprovider',
  base: {
    'calc/__init__.py': `def add(a, b):\n    return a - b\n${pad(8, '#')}\nONE = 1\n`,
    'tests/test_one.py': 'from calc import ONE\n\ndef test_one():\n    assert ONE == 1\n',
  },
  fix: {
    'calc/__init__.py': `def add(a, b):\n    return a + b\n${pad(8, '#')}\nONE = 1\n`,
    'tests/test_add.py': 'from calc import add\n\ndef test_add():\n    assert add(2, 2) == 4\n',
  },
  dead: {
    files: {
      'calc/__init__.py': `def add(a, b):\n    return a + b\n${pad(8, '#')}\nONE = 1\n\ndef never_called(x):\n    return x * 42\n`,
      'tests/test_add.py': 'from calc import add\n\ndef test_add():\n    assert add(2, 2) == 4\n',
    },
    hunk: { file: 'calc/__init__.py', startLine: 12, endLine: 14 },
  },
  many: {
    base: { 'calc/used.py': '# a\n# b\n# c\n', 'calc/unused.py': '# a\n# b\n' },
    files: {
      'calc/used.py': 'def f1():\n    return 1\n# a\ndef f2():\n    return 2\n# b\ndef f3():\n    return 3\n# c\n',
      'calc/unused.py': 'def g1():\n    return 1\n# a\ndef g2():\n    return 2\n# b\n',
      'tests/test_used.py': 'from calc.used import f1, f2, f3\n\ndef test_used():\n    assert f1() + f2() + f3() == 6\n',
    },
    deadFile: 'calc/unused.py',
  },
};

const GO: Fixture = {
  command: 'go test ./...',
  base: {
    'go.mod': 'module example.com/calc\n\ngo 1.19\n',
    'calc.go': `package calc\n\nfunc Add(a, b int) int { return a - b }\n${pad(8, '//')}\nconst One = 1\n`,
    'one_test.go': 'package calc\n\nimport "testing"\n\nfunc TestOne(t *testing.T) {\n\tif One != 1 {\n\t\tt.Fatal(One)\n\t}\n}\n',
  },
  fix: {
    'calc.go': `package calc\n\nfunc Add(a, b int) int { return a + b }\n${pad(8, '//')}\nconst One = 1\n`,
    'add_test.go':
      'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Fatal(Add(2, 2))\n\t}\n}\n',
  },
  dead: {
    files: {
      'calc.go': `package calc\n\nfunc Add(a, b int) int { return a + b }\n${pad(8, '//')}\nconst One = 1\n\nfunc NeverCalled(x int) int {\n\treturn x * 42\n}\n`,
      'add_test.go':
        'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Fatal(Add(2, 2))\n\t}\n}\n',
    },
    hunk: { file: 'calc.go', startLine: 13, endLine: 16 },
  },
  many: {
    base: { 'used.go': 'package calc\n\n// a\n// b\n// c\n', 'unused.go': 'package calc\n\n// a\n// b\n' },
    files: {
      'used.go': 'package calc\n\nfunc F1() int { return 1 }\n// a\nfunc F2() int { return 2 }\n// b\nfunc F3() int { return 3 }\n// c\n',
      'unused.go': 'package calc\n\nfunc G1() int { return 1 }\n// a\nfunc G2() int { return 2 }\n// b\n',
      'used_test.go':
        'package calc\n\nimport "testing"\n\nfunc TestUsed(t *testing.T) {\n\tif F1()+F2()+F3() != 6 {\n\t\tt.Fatal()\n\t}\n}\n',
    },
    deadFile: 'unused.go',
  },
};

const FIXTURES: Record<string, Fixture> = { 'node --test': NODE, pytest: PY, 'go test': GO };

/** The base committed, `change` written over it as the agent leaves it, the verifier's final check with verify.hunk_runs. */
async function check(fx: Fixture, change: Record<string, string>, hunkRuns: number, base: Record<string, string> = {}) {
  const { root, baseSha } = makeRepo({ ...fx.base, ...base });
  for (const [p, t] of Object.entries(change)) write(root, p, t);
  const config = parseRepoConfig(`test:\n  command: ${fx.command}\nverify:\n  hunk_runs: ${hunkRuns}\n`);
  const { verdict, events } = await finalCheckOf(root, baseSha, runSettingsOf(config));
  const check = events.flatMap((e) => (e.type === 'untested_hunks' ? [e] : []))[0];
  const notice = events.flatMap((e) => (e.type === 'notice' && e.message.startsWith('untested hunks') ? [e.message] : []))[0];
  const stamped = events.map((e) => ({ ...e, ts: '2026-01-01T00:00:00.000Z' })) as Parameters<typeof buildEvidence>[0];
  const evidence = buildEvidence(stamped, { repo: { baseSha, branch: 'main' }, filesChanged: [] });
  return { verdict, check, notice, evidence };
}

/** Which tests judged the hunks, per fixture: narrowed to the changed tests where the runner and its report allow. */
const SCOPE: Record<string, string> = { 'node --test': 'all tests', pytest: 'changed tests', 'go test': 'all tests' };

describe('untested hunks', () => {
  it.each(Object.keys(FIXTURES))(
    'untested hunks - %s: one dead hunk beside an exercised fix lists exactly that hunk',
    async (name) => {
      const fx = FIXTURES[name] as Fixture;
      const { verdict, check: c, notice, evidence } = await check(fx, fx.dead.files, 8);
      expect(verdict.ok).toBe(true);
      expect(c?.hunks).toEqual([fx.dead.hunk]);
      expect(c?.runs).toBe(2);
      expect(c?.grouped).toBe('hunk');
      expect(notice).toMatch(
        /2 extra run\(s\) of (the whole test command|the \d+ test\(s\) of the test files the change added or changed)/,
      );
      expect(evidence.untestedHunks).toEqual([fx.dead.hunk]);
      // pytest is narrowed to the test file the change added; node --test cannot be narrowed and go's tests name no file.
      expect(evidence.untestedHunksScope).toBe(SCOPE[name]);
    },
    180_000,
  );

  it.each(Object.keys(FIXTURES))(
    'untested hunks - %s: every hunk exercised lists none',
    async (name) => {
      const fx = FIXTURES[name] as Fixture;
      const { verdict, check: c, evidence } = await check(fx, fx.fix, 8);
      expect(verdict.ok).toBe(true);
      expect(c?.hunks).toEqual([]);
      expect(c?.runs).toBe(1);
      expect(evidence.untestedHunks).toBeUndefined();
    },
    180_000,
  );

  it.each(Object.keys(FIXTURES))(
    'untested hunks - %s: more hunks than verify.hunk_runs are grouped by file, the runs bounded',
    async (name) => {
      const fx = FIXTURES[name] as Fixture;
      const { verdict, check: c, notice } = await check(fx, fx.many.files, 2, fx.many.base);
      expect(verdict.ok).toBe(true);
      expect(c?.checked).toBe(5);
      expect(c?.runs).toBe(2);
      expect(c?.grouped).toBe('file');
      expect(c?.hunks.map((h) => h.file)).toEqual([fx.many.deadFile, fx.many.deadFile]);
      expect(notice).toMatch(
        /2 extra run\(s\) of (the whole test command|the \d+ test\(s\) of the test files the change added or changed)/,
      );
    },
    180_000,
  );

  it('untested hunks - a path git quotes (a quote and a tab in its name) is read and named as it is', async () => {
    const odd = 'src/dead "quoted"\tname.mjs';
    const { verdict, check: c } = await check(NODE, { ...NODE.fix, [odd]: 'export const dead = 1;\n' }, 8);
    expect(verdict.ok).toBe(true);
    expect(c?.hunks).toEqual([{ file: odd, startLine: 1, endLine: 1 }]);
  }, 180_000);

  it('untested hunks - verify.hunk_runs: 0 makes no run and lists nothing', async () => {
    const { verdict, check: c } = await check(NODE, NODE.dead.files, 0);
    expect(verdict.ok).toBe(true);
    expect(c).toBeUndefined();
  }, 180_000);
});
