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

/** The runner's own count of a plain run of the fixed tree. */
function ownCount(files: Record<string, string>, fixedFile: string, fixed: string, command: string, read: (out: string) => number): number {
  const repo = makeRepo({ ...files, [fixedFile]: fixed });
  const r = spawnSync('bash', ['-c', command], { cwd: repo.dir, encoding: 'utf8' });
  return read(`${r.stdout}${r.stderr}`);
}

describe('counts equal the runner’s own', () => {
  it('go subtests: verified, the final run counts what go test -v reports', async () => {
    const fixed = (GO_FILES['calc.go'] ?? '').replace('\t\treturn n\n\t}', '\t\treturn -n\n\t}');
    const own = ownCount(GO_FILES, 'calc.go', fixed, 'go test -v ./...', (o) => (o.match(/^\s*--- PASS: /gm) ?? []).length);
    expect(own).toBe(5);
    const repo = makeRepo(GO_FILES);
    const config = 'test:\n  command: go test ./...\npermissions:\n  allow: ["Bash(go test:*)"]\n';
    const { res } = await runOn(repo, fixSteps('calc.go', '\t\treturn n\n\t}', '\t\treturn -n\n\t}', 'go test ./...'), config);
    expect(res.evidence.verdict).toBe('verified');
    const { final } = runsOf(res);
    expect(final?.counts).toMatchObject({ passed: own, failed: 0, total: own });
    expect(final?.calls?.map((c) => c.runner)).toEqual(['go']);
  });

  it('unittest whose load_tests adds doctests: verified, every doctest counted', async () => {
    const fixed = (PY_FILES['calc.py'] ?? '').replace('n + n + 1', 'n + n');
    const own = ownCount(PY_FILES, 'calc.py', fixed, 'python3 -m unittest', (o) => Number(/^Ran (\d+) tests?/m.exec(o)?.[1] ?? -1));
    expect(own).toBe(4);
    const repo = makeRepo({ ...PY_FILES, '.gitignore': '__pycache__/\n' });
    const config = 'test:\n  command: python3 -m unittest\npermissions:\n  allow: ["Bash(python3 -m unittest:*)"]\n';
    const { res } = await runOn(repo, fixSteps('calc.py', 'n + n + 1', 'n + n', 'python3 -m unittest'), config);
    expect(res.evidence.verdict).toBe('verified');
    const { final } = runsOf(res);
    expect(final?.counts).toMatchObject({ passed: own, failed: 0, total: own });
    expect(final?.calls?.map((c) => c.runner)).toEqual(['unittest']);
  });
});
