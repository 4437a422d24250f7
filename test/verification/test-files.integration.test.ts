import { describe, expect, it } from '@jest/globals';
import { isTestFile, specArgs, testFilePatterns } from '../../src/agent/verification/changes/test-files.js';
import { makeRepo } from './git-repo.js';

describe("isTestFile - each runner's conventions", () => {
  it.each([
    ['test.js', true], // ava's default
    ['test-math.js', true], // ava
    ['packages/a/test-utils.mjs', true],
    ['calc_test.go', true],
    ['tests/test_calc.py', true],
    ['pkg/calc_test.py', true],
    ['tests/it.rs', true],
    ['src/math.js', false],
    ['testing.js', false],
    ['test/fixtures/data.js', false],
  ])('%s is a test file: %s', (path, expected) => {
    expect(isTestFile(path)).toBe(expected);
  });

  it("reads the runner's configuration: jest testMatch, ava files, .mocharc spec, jasmine spec_files, pytest python_files", () => {
    const { root } = makeRepo({
      'package.json': JSON.stringify({
        jest: { testMatch: ['<rootDir>/checks/**/*.js'] },
        ava: { files: ['verify/**/*.mjs', '!verify/helpers/**'] },
      }),
      '.mocharc.json': JSON.stringify({ spec: 'behaviour/**/*.cjs' }),
      'spec/support/jasmine.json': JSON.stringify({ spec_dir: 'jas', spec_files: ['**/*Check.js'] }),
      'pytest.ini': '[pytest]\npython_files = check_*.py\n',
    });
    const p = testFilePatterns(root);
    for (const f of ['checks/a.js', 'verify/x/y.mjs', 'behaviour/z.cjs', 'jas/unit/MathCheck.js', 'pkg/check_math.py'])
      expect(isTestFile(f, p)).toBe(true);
    expect(isTestFile('lib/a.js', p)).toBe(false);
    expect(p.globs.map((g) => g.from)).toEqual(
      expect.arrayContaining([
        'package.json#jest.testMatch',
        'package.json#ava.files',
        '.mocharc.json#spec',
        'spec/support/jasmine.json#spec_files',
        'pytest.ini#python_files',
      ]),
    );
  });

  it('reads the spec files scripts.test names: `mocha tests.js`, `node --test checks/a.js`, not a --require value', () => {
    expect(specArgs('mocha tests.js')).toEqual(['tests.js']);
    expect(specArgs('npx mocha --exit t.js && eslint .')).toEqual([]);
    expect(specArgs('mocha -r setup.js tests.js "spec/**/*.js"')).toEqual(['tests.js', 'spec/**/*.js']);
    expect(specArgs('node --test checks/a.js checks/b.mjs')).toEqual(['checks/a.js', 'checks/b.mjs']);
    expect(specArgs('node scripts/run.js')).toEqual([]);
    const { root } = makeRepo({ 'package.json': JSON.stringify({ scripts: { test: 'mocha -r setup.js tests.js' } }) });
    const p = testFilePatterns(root);
    expect(isTestFile('tests.js', p)).toBe(true);
    expect(isTestFile('setup.js', p)).toBe(false);
  });
});
