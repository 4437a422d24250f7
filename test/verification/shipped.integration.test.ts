/**
 * Which changed files are the fix: decided from the project's own manifests, never from names. Each case
 * is a base repository and a commit on it; the classifier must call exactly the shipped sources `shipped`,
 * and every other change (whatever its name) a test, a manifest or infrastructure.
 */
import { describe, expect, it } from '@jest/globals';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { classifyCommits, classifyWorktree, fixFiles } from '../../src/agent/verification/shipped/index.js';
import { commitAll, git, tempRepo, writeFiles, type Files } from '../kit/e2e-repo.js';

function pair(base: Files, change: Files, remove: string[] = []): { dir: string; baseSha: string; sha: string } {
  const { dir } = tempRepo({ files: base });
  const baseSha = git(dir, ['rev-parse', 'HEAD']).trim();
  writeFiles(dir, change);
  for (const r of remove) rmSync(join(dir, r), { force: true });
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'change']);
  return { dir, baseSha, sha: git(dir, ['rev-parse', 'HEAD']).trim() };
}

async function kinds(base: Files, change: Files, remove: string[] = []): Promise<Record<string, string>> {
  const p = pair(base, change, remove);
  const v = await classifyCommits({ root: p.dir }, p.baseSha, p.sha);
  return Object.fromEntries(v.changes.map((c) => [c.path, c.kind]));
}

const npmBase: Files = {
  'package.json': JSON.stringify({ name: 'calc', main: 'src/index.js', scripts: { test: 'jest' } }),
  'src/index.js': "module.exports = require('./calc');\n",
  'src/calc.js': "const rates = require('./rates.json');\nexports.add = (a, b) => a + b + rates.bias;\n",
  'src/rates.json': '{"bias":0}\n',
  'test/calc.test.js':
    "const cases = require('../data/cases.json');\nconst { add } = require('../src/calc');\ntest('add', () => expect(add(1, 2)).toBe(cases.sum));\n",
  'data/cases.json': '{"sum":3}\n',
};

describe('the fix is what the project ships', () => {
  it('npm: the entry points’ import graph is the fix; transform and alias configs, data the tests read, unreachable copies are not', async () => {
    const k = await kinds(npmBase, {
      'src/calc.js': "const rates = require('./rates.json');\nexports.add = (a, b) => a + b + rates.bias + 0;\n",
      'src/rates.json': '{"bias":0.0}\n',
      'src/calc-fixed.js': 'exports.add = (a, b) => a + b;\n',
      'babel.config.js': 'module.exports = { plugins: ["./fix-plugin"] };\n',
      'vite.config.mjs': "export default { resolve: { alias: { './calc': './calc-fixed' } } };\n",
      'data/cases.json': '{"sum":4}\n',
      'test/more.test.js': "const { add } = require('../src/calc');\ntest('more', () => expect(add(2, 2)).toBe(4));\n",
      'package-lock.json': '{}\n',
    });
    expect(k).toEqual({
      'src/calc.js': 'shipped',
      'src/rates.json': 'shipped',
      'src/calc-fixed.js': 'infrastructure',
      'babel.config.js': 'infrastructure',
      'vite.config.mjs': 'infrastructure',
      'data/cases.json': 'infrastructure',
      'test/more.test.js': 'test',
      'package-lock.json': 'manifest',
    });
  });

  it('npm without entry points (an app): the code the tests import is shipped; TypeScript .js specifiers resolve to .ts', async () => {
    const k = await kinds(
      {
        'package.json': JSON.stringify({ private: true, scripts: { test: 'vitest run' } }),
        'lib/util.ts': 'export const twice = (n: number) => n * 2;\n',
        'lib/app.ts': "import { twice } from './util.js';\nexport const four = () => twice(2);\n",
        'tests/app.test.ts': "import { four } from '../lib/app.js';\n",
      },
      { 'lib/util.ts': 'export const twice = (n: number) => n + n;\n', 'tools/gen.ts': 'export {};\n' },
    );
    expect(k).toEqual({ 'lib/util.ts': 'shipped', 'tools/gen.ts': 'infrastructure' });
  });

  it('python: the wheel’s package sources; bytecode, ignore rules, conftest and data are not', async () => {
    const k = await kinds(
      {
        'pyproject.toml': '[project]\nname = "calc"\n',
        'calc/__init__.py': '',
        'calc/core.py': 'def add(a, b):\n    return a - b\n',
        'tests/test_core.py': 'from calc.core import add\n',
        '.gitignore': '__pycache__/\n',
        'tests/cases.csv': 'a,b,sum\n',
      },
      {
        'calc/core.py': 'def add(a, b):\n    return a + b\n',
        'calc/__pycache__/core.cpython-311.pyc': '\u0000\u0001binary',
        '.gitignore': '',
        'conftest.py': 'import sys\n',
        'tests/cases.csv': 'a,b,sum\n1,2,4\n',
        'calc/helpers.py': 'X = 1\n',
      },
    );
    expect(k).toEqual({
      'calc/core.py': 'shipped',
      'calc/helpers.py': 'shipped',
      'calc/__pycache__/core.cpython-311.pyc': 'infrastructure',
      '.gitignore': 'infrastructure',
      'conftest.py': 'infrastructure',
      'tests/cases.csv': 'infrastructure',
    });
  });

  it('python flat module without packaging: what the tests import', async () => {
    const k = await kinds(
      { 'calc.py': 'def add(a, b):\n    return a - b\n', 'test_calc.py': 'import calc\n', 'cases.json': '{}' },
      { 'calc.py': 'def add(a, b):\n    return a + b\n', 'cases.json': '{"x":1}', 'test_calc.py': 'import calc\n# more\n' },
    );
    expect(k).toEqual({ 'calc.py': 'shipped', 'cases.json': 'infrastructure', 'test_calc.py': 'test' });
  });

  it('go: non-test sources and embedded files; _test.go and testdata are not', async () => {
    const k = await kinds(
      {
        'go.mod': 'module example.com/calc\n\ngo 1.21\n',
        'calc.go':
          'package calc\n\nimport _ "embed"\n\n//go:embed table.txt\nvar table string\n\nfunc Add(a, b int) int { return a - b }\n',
        'table.txt': '1\n',
        'calc_test.go': 'package calc\n',
        'testdata/cases.json': '{}',
      },
      {
        'calc.go':
          'package calc\n\nimport _ "embed"\n\n//go:embed table.txt\nvar table string\n\nfunc Add(a, b int) int { return a + b }\n',
        'table.txt': '2\n',
        'calc_test.go': 'package calc\n// x\n',
        'testdata/cases.json': '{"x":1}',
        Makefile: 'test:\n\tgo test ./...\n',
      },
    );
    expect(k).toEqual({
      'calc.go': 'shipped',
      'table.txt': 'shipped',
      'calc_test.go': 'test',
      'testdata/cases.json': 'infrastructure',
      Makefile: 'infrastructure',
    });
  });

  it('cargo: src outside #[cfg(test)] is the fix; an inline test change is a test change; tests/ is a test', async () => {
    const lib = (op: string, expected: string): string =>
      `pub fn add(a: i32, b: i32) -> i32 {\n    a ${op} b\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn adds() {\n        assert_eq!(add(1, 2), ${expected}); // "}"\n    }\n}\n`;
    const base = { 'Cargo.toml': '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n', 'src/lib.rs': lib('-', '3') };
    expect(await kinds(base, { 'src/lib.rs': lib('-', '-1') })).toEqual({ 'src/lib.rs': 'inline-test' });
    expect(await kinds(base, { 'src/lib.rs': lib('+', '3') })).toEqual({ 'src/lib.rs': 'shipped' });
    expect(await kinds(base, { 'src/lib.rs': lib('+', '4'), 'tests/it.rs': '#[test]\nfn x() {}\n' })).toEqual({
      'src/lib.rs': 'mixed',
      'tests/it.rs': 'test',
    });
  });

  it('review of real fixes: extension C sources and a setup.py package list ship; a fixture module the tests import does not', async () => {
    const k = await kinds(
      {
        'setup.py':
          "from setuptools import setup, Extension\nsetup(name='sj', packages=['sj', 'sj.tests'], ext_modules=[Extension('sj._speedups', ['sj/_speedups.c'])])\n",
        'sj/__init__.py': 'from .core import dumps\n',
        'sj/core.py': 'def dumps(x):\n    return str(x)\n',
        'sj/_speedups.c': 'int x;\n',
        'sj/tests/test_core.py': 'from sj import dumps\nfrom tests.fixtures.data import CASES\n',
        'tests/fixtures/data.py': 'CASES = [1]\n',
        'docs/conf.py': 'project = "sj"\n',
      },
      { 'sj/_speedups.c': 'int x = 1;\n', 'tests/fixtures/data.py': 'CASES = [2]\n', 'docs/conf.py': 'project = "sj2"\n' },
    );
    expect(k).toEqual({ 'sj/_speedups.c': 'shipped', 'tests/fixtures/data.py': 'infrastructure', 'docs/conf.py': 'infrastructure' });
  });

  it('review of real fixes: index.d.ts ships beside index.js; a tsconfig paths alias resolves; a Go internal package only tests import does not ship', async () => {
    const js = await kinds(
      {
        'package.json': JSON.stringify({ name: 'm', files: ['index.js', 'index.d.ts'] }),
        'index.js': "module.exports = require('@/lib/x');\n",
        'index.d.ts': 'export declare const x: number;\n',
        'lib/x.js': 'module.exports = 1;\n',
        'tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@/*": ["./*"] } } }\n',
        'fixtures/codes.js': 'module.exports = [];\n',
        'test.js': "require('./fixtures/codes');\n",
      },
      { 'index.d.ts': 'export declare const x: 1;\n', 'lib/x.js': 'module.exports = 2;\n', 'fixtures/codes.js': 'module.exports = [1];\n' },
    );
    expect(js).toEqual({ 'index.d.ts': 'shipped', 'lib/x.js': 'shipped', 'fixtures/codes.js': 'infrastructure' });
    const go = await kinds(
      {
        'go.mod': 'module example.com/m\n\ngo 1.21\n',
        'm.go': 'package m\n\nimport "example.com/m/internal/real"\n\nvar X = real.Y\n',
        'internal/real/real.go': 'package real\n\nvar Y = 1\n',
        'internal/harness/h.go': 'package harness\n\nvar Z = 1\n',
        'm_test.go': 'package m\n\nimport "example.com/m/internal/harness"\n',
      },
      { 'internal/real/real.go': 'package real\n\nvar Y = 2\n', 'internal/harness/h.go': 'package harness\n\nvar Z = 2\n' },
    );
    expect(go).toEqual({ 'internal/real/real.go': 'shipped', 'internal/harness/h.go': 'infrastructure' });
  });

  it('a deleted shipped file is judged by what the base shipped; a worktree is classified like a commit', async () => {
    const k = await kinds(
      { ...npmBase, 'src/index.js': "require('./old');\nmodule.exports = require('./calc');\n", 'src/old.js': '' },
      { 'src/index.js': "module.exports = require('./calc');\n" },
      ['src/old.js'],
    );
    expect(k).toEqual({ 'src/index.js': 'shipped', 'src/old.js': 'shipped' });
    const { dir } = tempRepo({ files: npmBase });
    const baseSha = git(dir, ['rev-parse', 'HEAD']).trim();
    writeFiles(dir, { 'src/calc.js': 'exports.add = (a, b) => a + b;\n', 'babel.config.js': 'module.exports = {};\n' });
    const v = await classifyWorktree(dir, baseSha);
    expect(fixFiles(v)).toEqual(['src/calc.js']);
    expect(v.changes.find((c) => c.path === 'babel.config.js')?.kind).toBe('infrastructure');
    void commitAll;
  });
});
