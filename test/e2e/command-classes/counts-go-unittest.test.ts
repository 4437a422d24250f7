/**
 * Counts equal the runner's own: go subtests (what `go test -v` reports, subtests by the same rule)
 * and a unittest suite whose load_tests adds doctests. Each through a full run that fixes a bug.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { fixSteps, makeRepo, runOn, runsOf } from './kit.js';

jest.setTimeout(120_000);

const GO_FILES: Record<string, string> = {
  'go.mod': 'module example.com/calc\n\ngo 1.19\n',
  'calc.go':
    'package calc\n\n// Abs returns the absolute value of n.\nfunc Abs(n int) int {\n\tif n < 0 {\n\t\treturn n\n\t}\n\treturn n\n}\n',
  'calc_test.go':
    'package calc\n\nimport "testing"\n\nfunc TestAbs(t *testing.T) {\n\tfor _, c := range []struct {\n\t\tname    string\n\t\tin, out int\n\t}{{"positive", 2, 2}, {"zero", 0, 0}, {"negative", -3, 3}} {\n\t\tc := c\n\t\tt.Run(c.name, func(t *testing.T) {\n\t\t\tif got := Abs(c.in); got != c.out {\n\t\t\t\tt.Fatalf("Abs(%d) = %d", c.in, got)\n\t\t\t}\n\t\t})\n\t}\n}\n\nfunc TestAbsTwice(t *testing.T) {\n\tif Abs(Abs(-1)) != 1 {\n\t\tt.Fatal("twice")\n\t}\n}\n',
};

const PY_FILES: Record<string, string> = {
  'calc.py':
    'def double(n):\n    """Twice n.\n\n    >>> double(2)\n    4\n    >>> double(-1)\n    -2\n    """\n    return n + n + 1\n\n\ndef half(n):\n    """Half of n.\n\n    >>> half(4)\n    2.0\n    """\n    return n / 2\n',
  'tests/__init__.py': '',
  'tests/test_calc.py':
    'import doctest\nimport unittest\n\nimport calc\n\n\ndef load_tests(loader, tests, ignore):\n    tests.addTests(doctest.DocTestSuite(calc))\n    return tests\n\n\nclass CalcTest(unittest.TestCase):\n    def test_double(self):\n        self.assertEqual(calc.double(3), 6)\n\n    def test_half(self):\n        self.assertEqual(calc.half(3), 1.5)\n',
};

/** The runner's own count of a plain run of `files`. */
function ownCount(files: Record<string, string>, command: string, read: (out: string) => number): number {
  const repo = makeRepo(files);
  const r = spawnSync('bash', ['-c', command], { cwd: repo.dir, encoding: 'utf8' });
  return read(`${r.stdout}${r.stderr}`);
}

/** A project whose one-line fix the agent makes; the runner's own count of the fixed tree (plain command, its reader). */
interface Counted {
  title: string;
  files: Record<string, string>;
  /** The file the fix edits, its buggy text and the fix. */
  fix: [string, string, string];
  /** The runner's plain command on the fixed tree, and how its output says the count. */
  plain: string;
  count: (out: string) => number;
  own: number;
  /** The project's test command (the agent runs it too) and its repository config. */
  command: string;
  config: string;
  /** Files the repository adds to `files` (not in the plain run's tree). */
  extra?: Record<string, string>;
  runner: string;
}

const COUNTED: Counted[] = [
  {
    title: 'go subtests: verified, the final run counts what go test -v reports',
    files: GO_FILES,
    fix: ['calc.go', '\t\treturn n\n\t}', '\t\treturn -n\n\t}'],
    plain: 'go test -v ./...',
    count: (o) => (o.match(/^\s*--- PASS: /gm) ?? []).length,
    own: 5,
    command: 'go test ./...',
    config: 'test:\n  command: go test ./...\npermissions:\n  allow: ["Bash(go test:*)"]\n',
    runner: 'go',
  },
  {
    title: 'unittest whose load_tests adds doctests: verified, every doctest counted',
    files: PY_FILES,
    fix: ['calc.py', 'n + n + 1', 'n + n'],
    plain: 'python3 -m unittest',
    count: (o) => Number(/^Ran (\d+) tests?/m.exec(o)?.[1] ?? -1),
    own: 4,
    command: 'python3 -m unittest',
    config: 'test:\n  command: python3 -m unittest\npermissions:\n  allow: ["Bash(python3 -m unittest:*)"]\n',
    extra: { '.gitignore': '__pycache__/\n' },
    runner: 'unittest',
  },
];

describe('counts equal the runner’s own', () => {
  it.each(COUNTED.map((c) => [c.title, c] as const))('%s', async (_title, c) => {
    const [file, bug, fix] = c.fix;
    const own = ownCount({ ...c.files, [file]: (c.files[file] ?? '').replace(bug, fix) }, c.plain, c.count);
    expect(own).toBe(c.own);
    const repo = makeRepo({ ...c.files, ...c.extra });
    const { res } = await runOn(repo, fixSteps(file, bug, fix, c.command), c.config);
    expect(res.evidence.verdict).toBe('verified');
    const { final } = runsOf(res);
    expect(final?.counts).toMatchObject({ passed: own, failed: 0, total: own });
    expect(final?.calls?.map((x) => x.runner)).toEqual([c.runner]);
  });
});
