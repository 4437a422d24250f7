import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  COUNT_RULES,
  countPattern,
  directCount,
  globToRegExp,
  parseManifest,
  readManifest,
  readManifests,
  splitPaths,
  type BenchCase,
} from '../../bench/real/manifest.js';
import { parseTestOutput } from '../../src/agent/verification/test-results/parse-test-output.js';
import { runnerNamed } from '../../src/agent/verification/test-results/runners/index.js';
import { materialize } from '../../bench/real/materialize.js';
import { editsFor, replayReply, replaySteps } from '../../src/backtest/replay.js';
import { tempDir } from '../kit/temp.js';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd, encoding: 'utf8' }).trim();

describe('bench/real manifest', () => {
  const m = readManifest('bench/real/cases.json');

  it('bench real - cases.json is well-formed: unique ids ending in the fix id, full commit ids, a test part and a counting regex each', () => {
    expect(m.cases.length).toBeGreaterThanOrEqual(8);
    const runners = new Set(m.cases.map((c) => c.runner));
    expect(runners.size).toBeGreaterThanOrEqual(6);
    for (const r of ['pytest', 'unittest', 'go test']) expect(runners).toContain(r);
    for (const c of m.cases) {
      expect(c.id.endsWith(c.fix.slice(0, 7))).toBe(true);
      expect(c.fix).not.toBe(c.parent);
      expect(() => new RegExp(countPattern(c.direct.count))).not.toThrow();
    }
  });

  it('bench real - a bad manifest names the path of its first problem', () => {
    const bad = { cases: [{ ...m.cases[0]!, fix: 'abc' }] };
    expect(() => parseManifest(JSON.stringify(bad))).toThrow(/cases\.0\.fix/);
    const dup = { cases: [m.cases[0]!, m.cases[0]!] };
    expect(() => parseManifest(JSON.stringify(dup))).toThrow(/duplicate id/);
  });

  it('bench real - globs split the upstream paths into a test part and a source part', () => {
    expect(globToRegExp('tests/**').test('tests/fixtures/url.py')).toBe(true);
    expect(globToRegExp('**/*_test.go').test('uuid_test.go')).toBe(true);
    expect(globToRegExp('**/*_test.go').test('a/b/x_test.go')).toBe(true);
    expect(globToRegExp('src/*.test.ts').test('src/a/b.test.ts')).toBe(false);
    expect(splitPaths(['src/a.py', 'tests/test_a.py', 'README.md'], ['tests/**'])).toEqual({
      source: ['src/a.py', 'README.md'],
      test: ['tests/test_a.py'],
    });
  });

  it("bench real - the runner's own count: groups are summed, a regex without a group counts matches", () => {
    expect(directCount('== 3 passed in 1s ==\n== 4 passed ==', '(\\d+) passed')).toBe(7);
    expect(directCount('--- PASS: A\n    --- PASS: A/x\n--- FAIL: B', '^\\s*--- (?:PASS|FAIL):')).toBe(3);
    expect(directCount('nothing', '(\\d+) passed')).toBeUndefined();
    // go test -v: a test with subtests is their parent, only leaves count.
    expect(directCount('--- PASS: A\n    --- PASS: A/x\n    --- PASS: A/y\n--- PASS: B', '^\\s*--- (?:PASS|FAIL): (?<name>\\S+)')).toBe(3);
  });

  // Each runner's own summary (written for this test), its count by the bench's rule, and the product's total from the same output.
  const OWN: Array<[rule: string, output: string, count: number]> = [
    [
      'pytest',
      'tests/t.py::a PASSED\n2 passed, says a test\n=== 5 passed, 2 skipped, 7 deselected, 1 xfailed, 1 xpassed, 3 warnings in 0.20s ===',
      9,
    ],
    ['pytest', '2 failed, 3 passed, 1 error in 1.02s', 6],
    ['unittest', 'Ran 3 tests, says a test\n......\n----\nRan 12 tests in 0.003s\n\nOK (skipped=2)', 12],
    [
      'go',
      '=== RUN   TestA\n=== RUN   TestA/x\n--- PASS: TestA (0.00s)\n    --- PASS: TestA/x (0.00s)\n=== RUN   TestB\nno newline--- SKIP: TestB (0.00s)\n=== RUN   TestC\n--- PASS: says TestC\n--- FAIL: TestC (0.01s)\nFAIL\nFAIL\tex.com/p\t0.01s',
      4,
    ],
    [
      'cargo',
      'test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 2 filtered out; finished in 0.00s\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s',
      6,
    ],
    ['mocha', '  ✓ a test\n\n  5 passing (8ms)\n  1 pending\n  2 failing', 8],
    ['jest', 'Test Suites: 2 passed, 2 total\nTests:       1 skipped, 4 passed, 5 total', 5],
    ['vitest', ' Test Files  1 passed (1)\n      Tests  3 passed | 1 skipped (4)', 4],
  ];

  it.each(OWN)(
    "bench real - the %s rule counts every test the runner reports (skipped included, deselected not), as the product's total does",
    (rule, output, count) => {
      expect(directCount(output, rule)).toBe(count);
      // go's counts come from the go runner's reading of the -v lines (the go observer), the others' from their summary lines.
      const product = rule === 'go' ? runnerNamed('go')?.parse(output, '/') : parseTestOutput(output);
      expect(product?.counts.total).toBe(count);
    },
  );

  it('bench real - ava and node:test rules; every case of cases*.json names a rule or a valid regex', () => {
    expect(directCount('  ✔ a\n  ─\n\n  3 tests passed\n  1 known failure\n  1 test skipped\n  2 tests todo', 'ava')).toBe(7);
    expect(directCount('ℹ tests 6\nℹ suites 1\nℹ pass 6', 'node:test')).toBe(6);
    for (const c of readManifests('bench/real').cases) {
      if (c.runner !== 'node-tap') expect(Object.keys(COUNT_RULES)).toContain(c.direct.count);
      expect(() => new RegExp(countPattern(c.direct.count))).not.toThrow();
    }
  });
});

describe('bench/real replay', () => {
  it('bench real - hunk edits rebuild the upstream content exactly, else the file is written whole', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';
    const after = 'a\nB\nc\nd\ne\nf\ng\nh\nI\nj\nk\n';
    const edits = editsFor('x.txt', before, after)!;
    expect(edits.length).toBe(2);
    let text = before;
    for (const e of edits) text = text.replace(e.old_string as string, e.new_string as string);
    expect(text).toBe(after);
    // A hunk whose old text is not unique cannot be an Edit.
    const block = 'k\nk\nx\nk\nk\n';
    const twice = `${block}m\nm\nm\nm\nm\nm\n${block}`;
    const changed = `${block}m\nm\nm\nm\nm\nm\n${block.replace('x', 'y')}`;
    expect(editsFor('y.txt', twice, changed)).toBeUndefined();
    const steps = replaySteps(
      [
        { path: 'y.txt', before: twice, after: changed },
        { path: 'new.txt', after: 'n\n' },
        { path: 'old.txt', before: 'o\n' },
      ],
      'npm test',
    );
    expect(steps.map((s) => s.name)).toEqual(['Read', 'Write', 'Write', 'Bash', 'Bash']);
    expect(steps.at(-1)?.input).toEqual({ command: 'npm test' });
    expect(replayReply(steps, 1, 'done')).toMatchObject({
      content: [{ type: 'tool_use', name: 'Read', input: { file_path: 'y.txt' } }],
      stop_reason: 'tool_use',
    });
    expect(replayReply(steps, 99, 'done')).toEqual({ content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' });
  });

  it('bench real - a case is materialized from a local mirror: a one-commit bundle of the parent tree, the diff split in two', () => {
    const work = tempDir('proofpr-bench-real-');
    const up = join(work, 'sources', 'acme+calc');
    mkdirSync(join(up, 'test'), { recursive: true });
    git(up, 'init', '-q', '-b', 'trunk');
    writeFileSync(join(up, 'calc.js'), 'export const add = (a, b) => a - b;\n');
    writeFileSync(join(up, 'test', 'calc.test.js'), "import { add } from '../calc.js';\n");
    git(up, 'add', '-A');
    git(up, 'commit', '-q', '-m', 'first');
    git(up, 'commit', '-q', '--allow-empty', '-m', 'second');
    const parent = git(up, 'rev-parse', 'HEAD');
    writeFileSync(join(up, 'calc.js'), 'export const add = (a, b) => a + b;\n');
    writeFileSync(join(up, 'test', 'calc.test.js'), "import { add } from '../calc.js';\nif (add(1, 2) !== 3) throw new Error('add');\n");
    git(up, 'commit', '-q', '-am', 'fix add');
    const fix = git(up, 'rev-parse', 'HEAD');
    const c: BenchCase = {
      id: `calc-${fix.slice(0, 7)}`,
      repo: 'acme/calc',
      fix,
      parent,
      runner: 'node:test',
      title: 'fix add',
      tests: ['test/**'],
      agentTest: 'node --test',
      direct: { command: 'node --test', count: 'tests (\\d+)' },
    };
    const m = materialize(join(work, 'cache'), c, { PROOFPR_BENCH_REAL_SOURCES: join(work, 'sources') });
    expect(m.source.map((f) => f.path)).toEqual(['calc.js']);
    expect(m.test.map((f) => f.path)).toEqual(['test/calc.test.js']);
    expect(m.source[0]).toMatchObject({ before: 'export const add = (a, b) => a - b;\n', after: 'export const add = (a, b) => a + b;\n' });
    expect(m.sourceDiff).toContain('+export const add = (a, b) => a + b;');
    expect(m.testDiff).toContain("+if (add(1, 2) !== 3) throw new Error('add');");
    expect(readFileSync(join(m.dir, 'test.diff'), 'utf8')).toBe(m.testDiff);
    const clone = join(work, 'clone');
    execFileSync('git', ['clone', '-q', '--branch', 'main', m.bundle, clone]);
    expect(git(clone, 'rev-list', '--count', 'HEAD')).toBe('1');
    expect(git(clone, 'rev-parse', 'HEAD^{tree}')).toBe(git(up, 'rev-parse', `${parent}^{tree}`));
    expect(git(clone, 'log', '-1', '--format=%B')).toContain(`the parent of the upstream fix ${fix}`);
    // A second materialization reuses the cache and yields the same commit.
    expect(materialize(join(work, 'cache'), c, {}).baseCommit).toBe(m.baseCommit);
  });
});
