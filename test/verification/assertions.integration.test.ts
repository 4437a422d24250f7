import { unlinkSync, renameSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { assertionsKept } from '../../src/agent/verification/integrity/assertions.js';
import { isAssertionLine, isSkipLine } from '../../src/agent/verification/integrity/assertion-patterns.js';
import { isTestFile } from '../../src/agent/verification/changes/test-files.js';
import { MATH_SRC, MATH_TEST, mathTest } from '../kit/verify-math.js';
import { changedRepo, commitAll, git, write } from './git-repo.js';

const PY_TEST = `def test_parse():
    assert parse("1") == 1
    assert parse("2") == 2
`;

describe('assertionsKept', () => {
  const BASE = { 'src/math.js': MATH_SRC, 'test/math.test.js': MATH_TEST, 'tests/test_parse.py': PY_TEST, 'README.md': 'hi\n' };
  /** The base repository with `changes` written over it (uncommitted). */
  const repo = (changes: Record<string, string> = {}) => changedRepo(BASE, changes);
  /** The base repository with `changes`, judged. */
  const judge = async (changes: Record<string, string>) => {
    const { root, baseSha } = repo(changes);
    return assertionsKept(root, baseSha);
  };
  const py = (from: string, to: string) => ({ 'tests/test_parse.py': PY_TEST.replace(from, to) });
  /** MATH_TEST without its second assertion (`expect(add(-1, 1)).toBe(0)`, line 5). */
  const withoutSecond = mathTest('    expect(add(-1, 1)).toBe(0);\n', '');

  it('assertions - an honest change (code fixed, a test added) passes', async () => {
    const r = await judge({
      'src/math.js': 'export const add = (a, b) => Number(a) + Number(b);\nexport const mul = (a, b) => a * b;\n',
      ...mathTest("  it('multiplies'", "  it('adds strings', () => {\n    expect(add('1', '2')).toBe(3);\n  });\n  it('multiplies'"),
    });
    expect(r.passed).toBe(true);
    expect(r.changedTestFiles).toEqual(['test/math.test.js']);
    expect(r.detail).toContain('no assertion removed');
  });

  it('assertions - a deleted assertion fails and names the file and line', async () => {
    const r = await judge(withoutSecond);
    expect(r.passed).toBe(false);
    expect(r.removed).toEqual([{ file: 'test/math.test.js', line: 5, text: 'expect(add(-1, 1)).toBe(0)' }]);
    expect(r.detail).toContain(
      'test/math.test.js:5 (base): assertion removed (or changed beyond recognition) [test "math > adds"]\n    expect(add(-1, 1)).toBe(0)',
    );
  });

  it('assertions - commenting an assertion out counts as removing it', async () => {
    const r = await judge(py('    assert parse("2") == 2', '    # assert parse("2") == 2'));
    expect(r.passed).toBe(false);
    expect(r.removed[0]).toMatchObject({ file: 'tests/test_parse.py', line: 3 });
  });

  it('assertions - rewording an existing assertion (another subject) fails: a changed assertion is a removed one', async () => {
    const r = await judge(mathTest('expect(mul(2, 3)).toBe(6);', 'expect(mul(3, 2)).toEqual(6);'));
    expect(r.passed).toBe(false);
    expect(r.removed).toEqual([{ file: 'test/math.test.js', line: 8, text: 'expect(mul(2, 3)).toBe(6)' }]);
  });

  it.each([
    ['a changed expected value', 'expect(add(1, 2)).toBe(3);', 'expect(add(1, 2)).toBe(10);', 'expected value changed (3 → 10)'],
    [
      'a loosened matcher',
      'expect(add(1, 2)).toBe(3);',
      'expect(add(1, 2)).toBeDefined();',
      'matcher loosened from `toBe` to `toBeDefined`',
    ],
    ['an argument dropped', 'expect(add(1, 2)).toBe(3);', 'expect(add(1, 2)).toBe();', 'argument dropped (3)'],
  ])('assertions - %s fails with the file, line, old and new text', async (_what, from, to, why) => {
    const r = await judge(mathTest(from, to));
    expect(r.passed).toBe(false);
    expect(r.detail).toContain(`test/math.test.js:4: ${why}; it was \`${from.slice(0, -1)}\` [test "math > adds"]\n    ${to.slice(0, -1)}`);
  });

  it('assertions - node:assert with a changed expected value fails', async () => {
    const sum = (expected: number) =>
      `import assert from 'node:assert';\ntest('sum', () => {\n  assert.equal(sum([1, 2]), ${expected});\n});\n`;
    const { root } = repo({ 'test/sum.test.js': sum(3) });
    const base = commitAll(root, 'sum test');
    write(root, 'test/sum.test.js', sum(10));
    const r = await assertionsKept(root, base);
    expect(r.passed).toBe(false);
    expect(r.detail).toContain('test/sum.test.js:3: expected value changed (3 → 10); it was `assert.equal(sum([1, 2]), 3)` [test "sum"]');
  });

  it('assertions - moving an assertion within its test, re-indented and reformatted, passes; into another test fails', async () => {
    const { root, baseSha } = repo(
      mathTest(
        '    expect(add(1, 2)).toBe(3);\n    expect(add(-1, 1)).toBe(0);\n',
        '    expect(add(-1, 1)).toBe(0);\n        expect(\n      add(1, 2), // sum\n    ).toBe(3);\n',
      ),
    );
    const r = await assertionsKept(root, baseSha);
    expect(r.detail).toContain('no assertion removed');
    expect(r.passed).toBe(true);
    write(
      root,
      'test/math.test.js',
      MATH_TEST.replace('    expect(add(-1, 1)).toBe(0);\n', '').replace(
        "  it('multiplies', () => {\n",
        "  it('multiplies', () => {\n      expect(add(-1, 1)).toBe(0);\n",
      ),
    );
    expect((await assertionsKept(root, baseSha)).removed).toHaveLength(1);
  });

  it('assertions - an assertion moved to another test file fails (it is gone from its file)', async () => {
    const r = await judge({ ...withoutSecond, 'test/other.test.js': "it('x', () => {\n  expect(add(-1, 1)).toBe(0);\n});\n" });
    expect(r.removed).toHaveLength(1);
  });

  it('assertions - an early bare return at the start of a test body fails', async () => {
    const r = await judge({
      ...mathTest("  it('multiplies', () => {\n", "  it('multiplies', () => {\n    return;\n"),
      ...py('def test_parse():\n', 'def test_parse():\n    return\n'),
    });
    expect(r.passed).toBe(false);
    expect(r.earlyReturns).toEqual([
      { file: 'test/math.test.js', line: 8, text: 'return;' },
      { file: 'tests/test_parse.py', line: 2, text: 'return' },
      { file: 'tests/test_parse.py', line: 2, text: 'return' },
    ]);
    expect(r.detail).toContain(
      'test/math.test.js:8: assertion `expect(mul(2, 3)).toBe(6)` placed after an early return (it never runs) [test "math > multiplies"]\n    return;',
    );
  });

  it('assertions - a return inside a helper is not an early return', async () => {
    const r = await judge({ 'test/math.test.js': `${MATH_TEST}function helper(x) {\n  if (!x) {\n    return;\n  }\n}\n` });
    expect(r.passed).toBe(true);
  });

  it('assertions - a .gitattributes that marks test files -diff cannot hide a removed assertion, and fails itself', async () => {
    const r = await judge({ '.gitattributes': '*.js -diff\n', ...withoutSecond });
    expect(r.passed).toBe(false);
    expect(r.removed).toEqual([{ file: 'test/math.test.js', line: 5, text: 'expect(add(-1, 1)).toBe(0)' }]);
    expect(r.attributesChanged).toEqual(['.gitattributes']);
    expect(r.detail).toContain('.gitattributes added: it decides how git compares and stages files');
  });

  it('assertions - a binary attribute already in the base does not hide a changed assertion either', async () => {
    const { root } = repo({ 'test/.gitattributes': '*.js binary\n' });
    const base = commitAll(root, 'attributes');
    write(root, 'test/math.test.js', MATH_TEST.replace('toBe(6)', 'toBe(7)'));
    const r = await assertionsKept(root, base);
    expect(r.detail).toContain('test/math.test.js:8: expected value changed (6 → 7)');
    expect(r.attributesChanged).toEqual([]);
  });

  it('assertions - a skip marker moved within the file passes; a new one fails', async () => {
    const skipped = MATH_TEST.replace("  it('multiplies'", "  it.skip('multiplies'");
    const { root } = repo({ 'test/math.test.js': skipped });
    const base = commitAll(root, 'skip multiplies');
    write(root, 'test/math.test.js', skipped.replace("  it('adds'", "  it.skip('adds'"));
    const r = await assertionsKept(root, base);
    expect(r.skipsAdded.map((s) => s.line)).toEqual([3]);
    write(root, 'test/math.test.js', skipped);
    expect((await assertionsKept(root, base)).passed).toBe(true);
  });

  it('assertions - an added .skip fails with the file and line', async () => {
    const r = await judge(mathTest("  it('multiplies'", "  it.skip('multiplies'"));
    expect(r.passed).toBe(false);
    expect(r.skipsAdded).toEqual([{ file: 'test/math.test.js', line: 7, text: "it.skip('multiplies', () => {" }]);
    expect(r.detail).toContain(
      'test/math.test.js:7-9: `skip` marker added to test "math > multiplies": it no longer runs or its failure no longer counts',
    );
  });

  it('assertions - a skip in a new, untracked test file is caught too', async () => {
    const r = await judge({ 'src/__tests__/extra.spec.ts': "describe.only('extra', () => { it('x', () => expect(1).toBe(1)); });\n" });
    expect(r.passed).toBe(false);
    expect(r.skipsAdded[0]?.file).toBe('src/__tests__/extra.spec.ts');
  });

  it('assertions - pytest.mark.skip and xfail decorators fail', async () => {
    const r = await judge({ 'tests/test_parse.py': `import pytest\n@pytest.mark.xfail\n${PY_TEST}` });
    expect(r.passed).toBe(false);
    expect(r.skipsAdded.map((s) => s.line)).toEqual([2]);
  });

  it('assertions - a deleted test file fails', async () => {
    const { root, baseSha } = repo();
    unlinkSync(join(root, 'tests/test_parse.py'));
    const r = await assertionsKept(root, baseSha);
    expect(r.passed).toBe(false);
    expect(r.deletedTestFiles).toEqual(['tests/test_parse.py']);
    expect(r.detail).toContain('tests/test_parse.py:1 (base): test file deleted');
  });

  it('assertions - moving a test file out of the test folders counts as deleting it', async () => {
    const { root, baseSha } = repo();
    mkdirSync(join(root, 'old'), { recursive: true });
    renameSync(join(root, 'test/math.test.js'), join(root, 'old/math.js'));
    const r = await assertionsKept(root, baseSha);
    expect(r.passed).toBe(false);
    expect(r.deletedTestFiles).toEqual(['test/math.test.js']);
  });

  it('assertions - a renamed test file with its assertions kept passes', async () => {
    const { root, baseSha } = repo();
    renameSync(join(root, 'test/math.test.js'), join(root, 'test/arith.test.js'));
    expect((await assertionsKept(root, baseSha)).passed).toBe(true);
  });

  it('assertions - changes outside test files and a committed change are judged against the base', async () => {
    const { root, baseSha } = repo(withoutSecond);
    git(root, 'commit', '-qam', 'weaken');
    write(root, 'README.md', 'changed\n');
    const r = await assertionsKept(root, baseSha);
    expect(r.passed).toBe(false);
    expect(r.removed).toHaveLength(1);
  });

  it('assertions - a bad base commit fails with a message instead of throwing', async () => {
    const { root } = repo();
    const r = await assertionsKept(root, 'f'.repeat(40));
    expect(r.passed).toBe(false);
    expect(r.detail).toContain('could not diff the test files');
  });
});

describe('test file and line patterns', () => {
  it.each([
    ['test/math.test.js', true],
    ['src/math.spec.ts', true],
    ['tests/test_parse.py', true],
    ['pkg/parse_test.go', true],
    ['src/__tests__/a.tsx', true],
    ['spec/models/user_spec.rb', true],
    ['src/test/java/FooTest.java', true],
    ['tests/integration.rs', true],
    ['test/fixtures/repo/src/index.js', false],
    ['test/data.json', false],
    ['src/math.js', false],
    ['docs/testing.md', false],
  ])('test files - %s is a test file: %s', (path, expected) => {
    expect(isTestFile(path)).toBe(expected);
  });

  it.each([
    ['expect(a).toBe(1);', true],
    ['assert.equal(a, 1);', true],
    ['    assert x == 1', true],
    ['self.assertEqual(a, 1)', true],
    ['t.equal(a, 1)', true],
    ['assert_eq!(a, 1);', true],
    ['require.NoError(t, err)', true],
    ['t.Fatalf("got %d", n)', true],
    ['a.should.equal(1)', true],
    ['// expect(a).toBe(1);', false],
    ['const x = add(1, 2);', false],
  ])('assertion lines - %j is an assertion: %s', (line, expected) => {
    expect(isAssertionLine(line)).toBe(expected);
  });

  it.each([
    ["it.skip('x', () => {})", true],
    ["describe.only('x', () => {})", true],
    ["xit('x', () => {})", true],
    ["xdescribe('x', () => {})", true],
    ["it.todo('x')", true],
    ["test('x', { skip: true }, () => {})", true],
    ['@pytest.mark.skip(reason="later")', true],
    ['@skip', true],
    ['    t.Skip("later")', true],
    ['#[ignore]', true],
    ["it('skips the header', () => {})", false],
    ['const skipped = list.filter(isSkipped);', false],
  ])('skip lines - %j adds a skip: %s', (line, expected) => {
    expect(isSkipLine(line)).toBe(expected);
  });
});
