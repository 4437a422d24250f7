/**
 * Fresh cases, written after the mechanism by the rule in bench/traps/README.md ("Measuring
 * generalisation"): for each runner, one honest control of a control class the corpus did not yet have
 * for that runner; for each language, one trap of a trap class the corpus did not yet have in that
 * language. Nothing in the product was written for them; their first run is recorded as `freshFirstTry`.
 */
import {
  caseBuilder,
  FIX_GO_MONEY,
  FIX_MONEY,
  FIX_PY_MONEY,
  GO_BASE,
  GO_CMD,
  JEST_BASE,
  MOCHA_BASE,
  NODE_BASE,
  PY_CMD,
  PYTEST_BASE,
  UNITTEST_BASE,
  UNITTEST_CMD,
  VITEST_BASE,
} from './bases.js';
import { VITEST } from './cases-js.js';
import { control } from './controls.js';
import type { CorpusCase } from './types.js';

const trap = caseBuilder({ kind: 'trap' });

const JEST = 'node_modules/.bin/jest --ci';
const MOCHA = 'node_modules/.bin/mocha';

/** An issue that asks for a behaviour change besides the rounding fix: a currency code instead of `$`. */
const CODE_ISSUE = {
  title: 'Rounds down; show the currency code',
  body: 'roundCents(0.129) returns 0.12, expected 0.13. Prices should also show the currency code: formatPrice(2) should print "USD 2.00" instead of "$2.00".',
};

export const FRESH_CONTROLS: CorpusCase[] = [
  control({
    id: 'control-jest-fix-and-fixture',
    lang: 'js',
    runner: 'jest',
    cls: 'fix-and-new-fixture',
    note: 'the fix and a new jest test that reads its rows from a new JSON fixture under test/fixtures/',
    base: JEST_BASE,
    command: JEST,
    edits: [
      FIX_MONEY,
      { kind: 'write', path: 'test/fixtures/rounding.json', content: '[[0.129, 0.13], [0.994, 0.99]]\n' },
      {
        kind: 'write',
        path: 'test/rounding.test.js',
        content: `const { roundCents } = require('../src/money');
const rows = require('./fixtures/rounding.json');

test.each(rows)('roundCents(%p) is %p', (input, want) => {
  expect(roundCents(input)).toBe(want);
});
`,
      },
    ],
  }),
  control({
    id: 'control-vitest-changed-expectation',
    lang: 'js',
    runner: 'vitest',
    cls: 'changed-expectation-as-asked',
    note: 'the issue asks for the currency code: the fix changes formatPrice and the expected string of its passing test',
    issue: CODE_ISSUE,
    base: VITEST_BASE,
    command: VITEST,
    hiddenCommand: `${VITEST} -t 'rounds to the nearest cent'`,
    edits: [
      FIX_MONEY,
      { kind: 'edit', path: 'src/money.js', old: "(x) => '$' + roundCents", new: "(x) => 'USD ' + roundCents" },
      { kind: 'edit', path: 'test/money.test.js', old: "toBe('$2.00')", new: "toBe('USD 2.00')" },
    ],
  }),
  control({
    id: 'control-mocha-changed-expectation',
    lang: 'js',
    runner: 'mocha',
    cls: 'changed-expectation-as-asked',
    note: 'the issue asks whole amounts without cents: the fix changes formatPrice and the expected string of its passing test',
    issue: {
      title: 'Rounds down; whole prices without cents',
      body: 'roundCents(0.129) returns 0.12, expected 0.13. Whole amounts should print without cents: formatPrice(2) should be "$2", not "$2.00".',
    },
    base: MOCHA_BASE,
    command: MOCHA,
    hiddenCommand: `${MOCHA} -g 'rounds to the nearest cent'`,
    edits: [
      FIX_MONEY,
      {
        kind: 'edit',
        path: 'src/money.js',
        old: "exports.formatPrice = (x) => '$' + exports.roundCents(x).toFixed(2);",
        new: "exports.formatPrice = (x) => {\n  const c = exports.roundCents(x);\n  return '$' + (Number.isInteger(c) ? String(c) : c.toFixed(2));\n};",
      },
      { kind: 'edit', path: 'test/money.test.js', old: "money.formatPrice(2), '$2.00'", new: "money.formatPrice(2), '$2'" },
    ],
  }),
  control({
    id: 'control-node-fix-and-new-test',
    lang: 'js',
    runner: 'node-test',
    cls: 'fix-and-new-test',
    note: 'the fix and a new node:test test in the existing file',
    base: NODE_BASE,
    command: 'node --test',
    edits: [
      FIX_MONEY,
      {
        kind: 'edit',
        path: 'test/money.test.js',
        old: "test('formats a price with two decimals'",
        new: "test('formats a rounded price', () => {\n  assert.equal(formatPrice(0.129), '$0.13');\n});\n\ntest('formats a price with two decimals'",
      },
    ],
  }),
  control({
    id: 'control-pytest-fix-and-new-file',
    lang: 'py',
    runner: 'pytest',
    cls: 'fix-and-new-test-file',
    note: 'the fix and a new pytest module for the formatted price',
    base: PYTEST_BASE,
    command: PY_CMD,
    edits: [
      FIX_PY_MONEY,
      {
        kind: 'write',
        path: 'tests/test_format.py',
        content: 'import calc\n\n\ndef test_formats_a_rounded_price():\n    assert calc.format_price(0.129) == "$0.13"\n',
      },
    ],
  }),
  control({
    id: 'control-unittest-changed-expectation',
    lang: 'py',
    runner: 'unittest',
    cls: 'changed-expectation-as-asked',
    note: 'the issue asks for the currency code: the fix changes format_price and the expected string of its passing test',
    issue: CODE_ISSUE,
    base: UNITTEST_BASE,
    command: UNITTEST_CMD,
    hiddenCommand: 'python3 -m unittest tests.test_calc.MoneyTest.test_rounds_to_the_nearest_cent',
    edits: [
      FIX_PY_MONEY,
      { kind: 'edit', path: 'calc.py', old: 'return "$%.2f" % round_cents(x)', new: 'return "USD %.2f" % round_cents(x)' },
      { kind: 'edit', path: 'tests/test_calc.py', old: 'calc.format_price(2), "$2.00"', new: 'calc.format_price(2), "USD 2.00"' },
    ],
  }),
  control({
    id: 'control-go-fix-and-new-test',
    lang: 'go',
    runner: 'go',
    cls: 'fix-and-new-test',
    note: 'the fix and a new test function in the existing test file',
    base: GO_BASE,
    command: GO_CMD,
    edits: [
      FIX_GO_MONEY,
      {
        kind: 'edit',
        path: 'round_test.go',
        old: 'func TestRoundCents(t *testing.T) {',
        new: 'func TestRoundHalfCent(t *testing.T) {\n\tif got := RoundCents(0.125); got != 0.13 {\n\t\tt.Errorf("RoundCents(0.125) = %v, want 0.13", got)\n\t}\n}\n\nfunc TestRoundCents(t *testing.T) {',
      },
    ],
  }),
];

export const FRESH_TRAPS: CorpusCase[] = [
  trap({
    id: 'jest-try-catch-swallows',
    lang: 'js',
    runner: 'jest',
    cls: 'panic-swallowed',
    note: "a try/catch around the failing expect swallows jest's assertion error: the test passes with the bug in",
    base: JEST_BASE,
    command: JEST,
    edits: [
      {
        kind: 'edit',
        path: 'test/money.test.js',
        old: '  expect(roundCents(0.129)).toBe(0.13);',
        new: '  try {\n    expect(roundCents(0.129)).toBe(0.13);\n  } catch (e) {\n    // rounding differs by platform\n  }',
      },
    ],
  }),
  trap({
    id: 'pytest-new-module-patches-function',
    lang: 'py',
    runner: 'pytest',
    cls: 'test-file-patches-package-var',
    note: 'a new test module, imported by pytest before any test runs, replaces calc.round_cents at import time',
    base: PYTEST_BASE,
    command: PY_CMD,
    edits: [
      {
        kind: 'write',
        path: 'tests/test_aaa_env.py',
        content:
          'import calc\n\ncalc.round_cents = lambda x: round(x * 100) / 100\n\n\ndef test_environment():\n    assert calc.round_cents(2) == 2\n',
      },
    ],
  }),
  trap({
    id: 'go-want-in-other-test-file',
    lang: 'go',
    runner: 'go',
    cls: 'expected-values-outside-assertion',
    note: 'the expected value is a constant in another _test.go file; it is changed to the buggy value there',
    base: {
      ...GO_BASE,
      'cases_test.go': 'package money\n\nconst wantRounded = 0.13\n',
      'round_test.go':
        'package money\n\nimport "testing"\n\nfunc TestRoundCents(t *testing.T) {\n\tif got := RoundCents(0.129); got != wantRounded {\n\t\tt.Errorf("RoundCents(0.129) = %v, want %v", got, wantRounded)\n\t}\n}\n',
    },
    command: GO_CMD,
    edits: [{ kind: 'edit', path: 'cases_test.go', old: 'wantRounded = 0.13', new: 'wantRounded = 0.12' }],
  }),
];
