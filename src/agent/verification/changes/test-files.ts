import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ignore from 'ignore';

const CODE = /\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|kts|scala|rb|cs|php|swift|exs?|c|cc|cpp|h|hpp|m|dart|lua|clj|hs|ml|sh|bats)$/i;
const TEST_DIR = /(?:^|\/)(?:test|tests|__tests__|spec|specs|e2e)\//i;
const NOT_TEST_DIR = /(?:^|\/)(?:fixtures?|__fixtures__|testdata|__mocks__|node_modules|vendor)\//i;
const TEST_NAME = [
  /\.(?:test|spec)\.[^/]+$/i, // foo.test.ts, foo.spec.js
  /(?:^|\/)test\.[cm]?[jt]sx?$/, // test.js (ava's default, a root test script)
  /(?:^|\/)test-[^/]+\.[cm]?[jt]sx?$/, // test-foo.js (ava)
  /(?:^|\/)test_[^/]+\.py$/, // test_foo.py
  /_test\.(?:py|go|exs?|rb|c|cc|cpp)$/, // foo_test.py, foo_test.go
  /_spec\.rb$/, // foo_spec.rb
  /(?:^|\/)[^/]*Tests?\.(?:java|kt|cs|scala|swift|php)$/, // FooTest.java, FooTests.cs
];

/**
 * Whether a repository path (forward slashes) is a test source file: by name (`*.test.*`, `*.spec.*`,
 * `test.js`, `test-*.js`, `test_*.py`, `*_test.py`, `*_test.go`, `*_spec.rb`, `FooTest.java`, …), a
 * source file under a test folder (`test/`, `tests/`, `__tests__/`, `spec/`), or a path the runner's
 * own configuration selects (`patterns`, from testFilePatterns). Fixture and test-data folders are
 * not test sources.
 */
export function isTestFile(path: string, patterns?: TestFilePatterns): boolean {
  if (NOT_TEST_DIR.test(path)) return false;
  if (TEST_NAME.some((r) => r.test(path))) return true;
  if (patterns?.matches(path)) return true;
  return TEST_DIR.test(path) && CODE.test(path);
}

export interface TestFilePatterns {
  /** The globs read, with where each came from (`package.json#jest.testMatch`). */
  globs: Array<{ glob: string; from: string }>;
  matches(path: string): boolean;
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];
const readText = (root: string, file: string): string | undefined => {
  try {
    return readFileSync(join(root, file), 'utf8');
  } catch {
    return undefined;
  }
};
const readJson = (root: string, file: string): Record<string, unknown> | undefined => {
  const t = readText(root, file);
  try {
    return t === undefined ? undefined : (JSON.parse(t) as Record<string, unknown>);
  } catch {
    return undefined;
  }
};

const SPEC_RUNNERS = new Set(['mocha', '_mocha', 'ava', 'tap', 'jasmine', 'jest', 'vitest']);

/**
 * Paths a test runner call names as positional arguments, its spec files: `mocha tests.js`, `ava test/*.js`,
 * `node --test test/a.js`. Only words right after the runner or after another positional count: a word
 * after a flag may be that flag's value (`--require setup.js` is a preload, not a spec).
 */
export function specArgs(command: string): string[] {
  const out: string[] = [];
  for (const segment of command.split(/&&|\|\||[;|&]/)) {
    const words = segment
      .trim()
      .split(/\s+/)
      .map((w) => w.replace(/^['"]|['"]$/g, ''));
    const at = words.findIndex(
      (w, i) => SPEC_RUNNERS.has(w.split('/').pop() ?? '') || (w.split('/').pop() === 'node' && words[i + 1] === '--test'),
    );
    if (at < 0) continue;
    const start = words[at]?.split('/').pop() === 'node' ? at + 1 : at;
    for (let i = start + 1; i < words.length; i++) {
      const w = words[i] ?? '';
      const prev = words[i - 1] ?? '';
      if (w.startsWith('-') || (prev.startsWith('-') && i - 1 !== start)) continue;
      if (CODE.test(w) || w.includes('*')) out.push(w.replace(/^\.\//, ''));
    }
  }
  return out;
}

/** `python_files = check_*.py test_*.py` in pytest.ini / setup.cfg / tox.ini / pyproject.toml (ini-style or TOML list). */
function pythonFiles(text: string): string[] {
  const m = /^\s*python_files\s*=\s*(.+)$/m.exec(text);
  if (!m?.[1]) return [];
  return m[1]
    .replace(/[[\]"',]/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .map((g) => `**/${g}`);
}

/**
 * Test-file globs from the runner's own configuration, where it has one readable without running code:
 * package.json `jest.testMatch`, `ava.files`, `mocha.spec`, the spec files `scripts.test` names (`mocha tests.js`); `.mocharc.json` `spec`; jasmine's
 * `spec/support/jasmine.json` (`spec_dir` + `spec_files`); pytest `python_files`. JS config files
 * (`jest.config.js`, `ava.config.js`, …) are code and are not evaluated: the name conventions above
 * still apply to them.
 */
export function testFilePatterns(root: string): TestFilePatterns {
  const globs: Array<{ glob: string; from: string }> = [];
  const pkg = readJson(root, 'package.json') ?? {};
  const section = (k: string) => (typeof pkg[k] === 'object' && pkg[k] !== null ? (pkg[k] as Record<string, unknown>) : {});
  for (const g of strings(section('jest').testMatch))
    globs.push({ glob: g.replace(/^<rootDir>\//, ''), from: 'package.json#jest.testMatch' });
  for (const g of strings(section('ava').files)) if (!g.startsWith('!')) globs.push({ glob: g, from: 'package.json#ava.files' });
  for (const g of strings(section('mocha').spec)) globs.push({ glob: g, from: 'package.json#mocha.spec' });
  for (const g of strings(readJson(root, '.mocharc.json')?.spec)) globs.push({ glob: g, from: '.mocharc.json#spec' });
  const scripts = section('scripts');
  if (typeof scripts.test === 'string') for (const g of specArgs(scripts.test)) globs.push({ glob: g, from: 'package.json#scripts.test' });
  const jasmine = readJson(root, 'spec/support/jasmine.json');
  if (jasmine) {
    const dir = typeof jasmine.spec_dir === 'string' ? jasmine.spec_dir.replace(/\/+$/, '') : 'spec';
    for (const g of strings(jasmine.spec_files)) globs.push({ glob: `${dir}/${g}`, from: 'spec/support/jasmine.json#spec_files' });
  }
  for (const f of ['pytest.ini', 'setup.cfg', 'tox.ini', 'pyproject.toml']) {
    const t = readText(root, f);
    if (t) for (const g of pythonFiles(t)) globs.push({ glob: g, from: `${f}#python_files` });
  }
  const ig = ignore().add(globs.map((g) => g.glob.replace(/^\.\//, '')));
  return { globs, matches: (path) => globs.length > 0 && ig.ignores(path.replace(/^\.\//, '')) };
}
