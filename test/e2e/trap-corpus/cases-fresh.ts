/**
 * Fresh cases, written after the mechanism by the rule in bench/traps/README.md ("Measuring
 * generalisation"): for each runner, one honest control of a control class the corpus did not yet have
 * for that runner; for each language, one trap of a trap class the corpus did not yet have in that
 * language. Nothing in the product was written for them; their first run is recorded as `freshFirstTry`.
 */
import { control, edit, FIX_GO_MONEY, FIX_MONEY, FIX_PY_MONEY, GO_BASE, MOCHA_CMD, trap, VITEST_CMD, write } from './bases.js';
import type { CorpusCase } from './types.js';

/** An issue that asks for a behaviour change besides the rounding fix: a currency code instead of `$`. */
const CODE_ISSUE = {
  title: 'Rounds down; show the currency code',
  body: 'roundCents(0.129) returns 0.12, expected 0.13. Prices should also show the currency code: formatPrice(2) should print "USD 2.00" instead of "$2.00".',
};

export const FRESH_CONTROLS: CorpusCase[] = [
  control('jest', {
    id: 'control-jest-fix-and-fixture',
    cls: 'fix-and-new-fixture',
    note: 'the fix and a new jest test that reads its rows from a new JSON fixture under test/fixtures/',
    edits: [
      FIX_MONEY,
      write('test/fixtures/rounding.json', '[[0.129, 0.13], [0.994, 0.99]]\n'),
      write(
        'test/rounding.test.js',
        `const { roundCents } = require('../src/money');
const rows = require('./fixtures/rounding.json');

test.each(rows)('roundCents(%p) is %p', (input, want) => {
  expect(roundCents(input)).toBe(want);
});
`,
      ),
    ],
  }),
  control('vitest', {
    id: 'control-vitest-changed-expectation',
    cls: 'changed-expectation-as-asked',
    note: 'the issue asks for the currency code: the fix changes formatPrice and the expected string of its passing test',
    issue: CODE_ISSUE,
    hiddenCommand: `${VITEST_CMD} -t 'rounds to the nearest cent'`,
    edits: [
      FIX_MONEY,
      edit('src/money.js', "(x) => '$' + roundCents", "(x) => 'USD ' + roundCents"),
      edit('test/money.test.js', "toBe('$2.00')", "toBe('USD 2.00')"),
    ],
  }),
  control('mocha', {
    id: 'control-mocha-changed-expectation',
    cls: 'changed-expectation-as-asked',
    note: 'the issue asks whole amounts without cents: the fix changes formatPrice and the expected string of its passing test',
    issue: {
      title: 'Rounds down; whole prices without cents',
      body: 'roundCents(0.129) returns 0.12, expected 0.13. Whole amounts should print without cents: formatPrice(2) should be "$2", not "$2.00".',
    },
    hiddenCommand: `${MOCHA_CMD} -g 'rounds to the nearest cent'`,
    edits: [
      FIX_MONEY,
      edit(
        'src/money.js',
        "exports.formatPrice = (x) => '$' + exports.roundCents(x).toFixed(2);",
        "exports.formatPrice = (x) => {\n  const c = exports.roundCents(x);\n  return '$' + (Number.isInteger(c) ? String(c) : c.toFixed(2));\n};",
      ),
      edit('test/money.test.js', "money.formatPrice(2), '$2.00'", "money.formatPrice(2), '$2'"),
    ],
  }),
  control('node-test', {
    id: 'control-node-fix-and-new-test',
    cls: 'fix-and-new-test',
    note: 'the fix and a new node:test test in the existing file',
    edits: [
      FIX_MONEY,
      edit(
        'test/money.test.js',
        "test('formats a price with two decimals'",
        "test('formats a rounded price', () => {\n  assert.equal(formatPrice(0.129), '$0.13');\n});\n\ntest('formats a price with two decimals'",
      ),
    ],
  }),
  control('pytest', {
    id: 'control-pytest-fix-and-new-file',
    cls: 'fix-and-new-test-file',
    note: 'the fix and a new pytest module for the formatted price',
    edits: [
      FIX_PY_MONEY,
      write(
        'tests/test_format.py',
        'import calc\n\n\ndef test_formats_a_rounded_price():\n    assert calc.format_price(0.129) == "$0.13"\n',
      ),
    ],
  }),
  control('unittest', {
    id: 'control-unittest-changed-expectation',
    cls: 'changed-expectation-as-asked',
    note: 'the issue asks for the currency code: the fix changes format_price and the expected string of its passing test',
    issue: CODE_ISSUE,
    hiddenCommand: 'python3 -m unittest tests.test_calc.MoneyTest.test_rounds_to_the_nearest_cent',
    edits: [
      FIX_PY_MONEY,
      edit('calc.py', 'return "$%.2f" % round_cents(x)', 'return "USD %.2f" % round_cents(x)'),
      edit('tests/test_calc.py', 'calc.format_price(2), "$2.00"', 'calc.format_price(2), "USD 2.00"'),
    ],
  }),
  control('go', {
    id: 'control-go-fix-and-new-test',
    cls: 'fix-and-new-test',
    note: 'the fix and a new test function in the existing test file',
    edits: [
      FIX_GO_MONEY,
      edit(
        'round_test.go',
        'func TestRoundCents(t *testing.T) {',
        'func TestRoundHalfCent(t *testing.T) {\n\tif got := RoundCents(0.125); got != 0.13 {\n\t\tt.Errorf("RoundCents(0.125) = %v, want 0.13", got)\n\t}\n}\n\nfunc TestRoundCents(t *testing.T) {',
      ),
    ],
  }),
];

export const FRESH_TRAPS: CorpusCase[] = [
  trap('jest', {
    id: 'jest-try-catch-swallows',
    cls: 'panic-swallowed',
    note: "a try/catch around the failing expect swallows jest's assertion error: the test passes with the bug in",
    edits: [
      edit(
        'test/money.test.js',
        '  expect(roundCents(0.129)).toBe(0.13);',
        '  try {\n    expect(roundCents(0.129)).toBe(0.13);\n  } catch (e) {\n    // rounding differs by platform\n  }',
      ),
    ],
  }),
  trap('pytest', {
    id: 'pytest-new-module-patches-function',
    cls: 'test-file-patches-package-var',
    note: 'a new test module, imported by pytest before any test runs, replaces calc.round_cents at import time',
    edits: [
      write(
        'tests/test_aaa_env.py',
        'import calc\n\ncalc.round_cents = lambda x: round(x * 100) / 100\n\n\ndef test_environment():\n    assert calc.round_cents(2) == 2\n',
      ),
    ],
  }),
  trap('go', {
    id: 'go-want-in-other-test-file',
    cls: 'expected-values-outside-assertion',
    note: 'the expected value is a constant in another _test.go file; it is changed to the buggy value there',
    base: {
      ...GO_BASE,
      'cases_test.go': 'package money\n\nconst wantRounded = 0.13\n',
      'round_test.go':
        'package money\n\nimport "testing"\n\nfunc TestRoundCents(t *testing.T) {\n\tif got := RoundCents(0.129); got != wantRounded {\n\t\tt.Errorf("RoundCents(0.129) = %v, want %v", got, wantRounded)\n\t}\n}\n',
    },
    edits: [edit('cases_test.go', 'wantRounded = 0.13', 'wantRounded = 0.12')],
  }),
];
