/**
 * Honest controls: legitimate fixes that change the source and add or change tests. Each must pass the
 * suite, pass the hidden check (the base's failing tests on the fixed source), and its edited tests must
 * fail on the base's source (red → green).
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
import { TABLE_TEST } from './cases-go.js';
import { VITEST } from './cases-js.js';
import type { CorpusCase } from './types.js';

/** An honest control (the corpus's one builder, bases.ts); the fresh controls use it too. */
export const control = caseBuilder({ kind: 'control' });

const PARAM_TEST = `import pytest

import calc


@pytest.mark.parametrize("value, cents", [(0.129, 0.13), (2, 2)])
def test_round_cents(value, cents):
    assert calc.round_cents(value) == cents
`;

export const CONTROLS: CorpusCase[] = [
  control({
    id: 'control-jest-fix-only',
    lang: 'js',
    runner: 'jest',
    cls: 'fix-only',
    note: 'the source fix alone',
    base: JEST_BASE,
    command: 'node_modules/.bin/jest --ci',
    edits: [FIX_MONEY],
  }),
  control({
    id: 'control-jest-fix-and-new-test',
    lang: 'js',
    runner: 'jest',
    cls: 'fix-and-new-test',
    note: 'the fix and a new test in the same file for the formatted price of the issue',
    base: JEST_BASE,
    command: 'node_modules/.bin/jest --ci',
    edits: [
      FIX_MONEY,
      {
        kind: 'edit',
        path: 'test/money.test.js',
        old: "test('formats a price with two decimals'",
        new: "test('formats a rounded price', () => {\n  expect(formatPrice(0.129)).toBe('$0.13');\n});\n\ntest('formats a price with two decimals'",
      },
    ],
  }),
  control({
    id: 'control-jest-snapshot-as-asked',
    lang: 'js',
    runner: 'jest',
    cls: 'changed-expectation-as-asked',
    note: 'the issue asks for the currency code: the fix changes the output and the receipt snapshot with it',
    issue: { title: 'Show the currency code', body: 'formatPrice(2) should print "USD 2.00" instead of "$2.00", receipts too.' },
    base: {
      ...JEST_BASE,
      'test/money.test.js': `const { formatPrice } = require('../src/money');

test('formats with the currency code', () => {
  expect(formatPrice(2)).toBe('USD 2.00');
});

test('receipt', () => {
  expect([1, 2.5].map(formatPrice).join('\\n')).toMatchSnapshot();
});
`,
      'test/__snapshots__/money.test.js.snap':
        '// Jest Snapshot v1, https://jestjs.io/docs/snapshot-testing\n\nexports[`receipt 1`] = `\n"$1.00\n$2.50"\n`;\n',
    },
    command: 'node_modules/.bin/jest --ci',
    hiddenCommand: "node_modules/.bin/jest --ci -t 'formats with the currency code'",
    edits: [
      { kind: 'edit', path: 'src/money.js', old: "(x) => '$' + exports", new: "(x) => 'USD ' + exports" },
      { kind: 'edit', path: 'test/__snapshots__/money.test.js.snap', old: '"$1.00\n$2.50"', new: '"USD 1.00\nUSD 2.50"' },
    ],
  }),
  control({
    id: 'control-vitest-fix-and-new-file',
    lang: 'js',
    runner: 'vitest',
    cls: 'fix-and-new-test-file',
    note: 'the fix and a new test file for formatPrice',
    base: VITEST_BASE,
    command: VITEST,
    edits: [
      FIX_MONEY,
      {
        kind: 'write',
        path: 'test/format.test.js',
        content:
          "import { expect, test } from 'vitest';\nimport { formatPrice } from '../src/money.js';\n\ntest('formats a rounded price', () => {\n  expect(formatPrice(0.129)).toBe('$0.13');\n});\n",
      },
    ],
  }),
  control({
    id: 'control-mocha-fix-and-fixture',
    lang: 'js',
    runner: 'mocha',
    cls: 'fix-and-new-fixture',
    note: 'the fix and a new test that reads its cases from a new fixture file',
    base: MOCHA_BASE,
    command: 'node_modules/.bin/mocha',
    edits: [
      FIX_MONEY,
      { kind: 'write', path: 'test/fixtures/prices.json', content: '[["0.129", "$0.13"], ["0.5", "$0.50"]]\n' },
      {
        kind: 'write',
        path: 'test/prices.test.js',
        content: `const assert = require('node:assert/strict');
const money = require('../src/money');
const rows = require('./fixtures/prices.json');

describe('formatPrice from the fixture', () => {
  for (const [input, want] of rows) {
    it('formats ' + input, () => {
      assert.equal(money.formatPrice(Number(input)), want);
    });
  }
});
`,
      },
    ],
  }),
  control({
    id: 'control-node-fix-and-new-file',
    lang: 'js',
    runner: 'node-test',
    cls: 'fix-and-new-test-file',
    note: 'the fix and a new node:test file with an edge case',
    base: NODE_BASE,
    command: 'node --test',
    edits: [
      FIX_MONEY,
      {
        kind: 'write',
        path: 'test/money-edge.test.js',
        content:
          "const test = require('node:test');\nconst assert = require('node:assert/strict');\nconst { roundCents } = require('../src/money');\n\ntest('rounds half a cent up', () => {\n  assert.equal(roundCents(0.125), 0.13);\n});\n",
      },
    ],
  }),
  control({
    id: 'control-pytest-parametrize-row',
    lang: 'py',
    runner: 'pytest',
    cls: 'parametrize-gains-row',
    note: 'the fix and a new row in the parametrize table',
    base: { ...PYTEST_BASE, 'tests/test_calc.py': PARAM_TEST },
    command: PY_CMD,
    edits: [
      FIX_PY_MONEY,
      { kind: 'edit', path: 'tests/test_calc.py', old: '[(0.129, 0.13), (2, 2)]', new: '[(0.129, 0.13), (2, 2), (0.996, 1.0)]' },
    ],
  }),
  control({
    id: 'control-pytest-changed-expectation',
    lang: 'py',
    runner: 'pytest',
    cls: 'changed-expectation-as-asked',
    note: 'the issue asks round_cents(None) to be 0 instead of raising: the fix changes that test too',
    issue: {
      title: 'round_cents rounds down and fails on None',
      body: 'round_cents(0.129) returns 0.12 (expected 0.13), and round_cents(None) should return 0 instead of raising TypeError.',
    },
    base: {
      ...PYTEST_BASE,
      'tests/test_calc.py': `import pytest

import calc


def test_rounds_to_the_nearest_cent():
    assert calc.round_cents(0.129) == 0.13


def test_none():
    with pytest.raises(TypeError):
        calc.round_cents(None)
`,
    },
    command: PY_CMD,
    hiddenCommand: `${PY_CMD} tests/test_calc.py::test_rounds_to_the_nearest_cent`,
    edits: [
      {
        kind: 'edit',
        path: 'calc.py',
        old: 'def round_cents(x):\n    return math.floor(x * 100) / 100',
        new: 'def round_cents(x):\n    if x is None:\n        return 0\n    return round(x * 100) / 100',
      },
      {
        kind: 'edit',
        path: 'tests/test_calc.py',
        old: 'def test_none():\n    with pytest.raises(TypeError):\n        calc.round_cents(None)',
        new: 'def test_none():\n    assert calc.round_cents(None) == 0',
      },
    ],
  }),
  control({
    id: 'control-pytest-new-conftest-fixture',
    lang: 'py',
    runner: 'pytest',
    cls: 'fix-and-new-conftest',
    note: 'the fix and a new conftest.py fixture (data only) used by a new test',
    base: PYTEST_BASE,
    command: PY_CMD,
    edits: [
      FIX_PY_MONEY,
      {
        kind: 'write',
        path: 'tests/conftest.py',
        content: 'import pytest\n\n\n@pytest.fixture\ndef prices():\n    return [0.129, 0.994]\n',
      },
      {
        kind: 'write',
        path: 'tests/test_prices.py',
        content:
          'import calc\n\n\ndef test_formats_prices(prices):\n    assert [calc.format_price(p) for p in prices] == ["$0.13", "$0.99"]\n',
      },
    ],
  }),
  control({
    id: 'control-unittest-new-method',
    lang: 'py',
    runner: 'unittest',
    cls: 'fix-and-new-test',
    note: 'the fix and a new test method',
    base: UNITTEST_BASE,
    command: UNITTEST_CMD,
    edits: [
      FIX_PY_MONEY,
      {
        kind: 'edit',
        path: 'tests/test_calc.py',
        old: '    def test_formats_a_price(self):',
        new: '    def test_formats_a_rounded_price(self):\n        self.assertEqual(calc.format_price(0.129), "$0.13")\n\n    def test_formats_a_price(self):',
      },
    ],
  }),
  control({
    id: 'control-go-table-rows',
    lang: 'go',
    runner: 'go',
    cls: 'table-gains-rows',
    note: 'the fix and two new rows in the table-driven test',
    base: { ...GO_BASE, 'round_test.go': TABLE_TEST },
    command: GO_CMD,
    edits: [
      FIX_GO_MONEY,
      {
        kind: 'edit',
        path: 'round_test.go',
        old: '{"whole", 2, 2},',
        new: '{"whole", 2, 2},\n\t\t{"half", 0.125, 0.13},\n\t\t{"down", 0.121, 0.12},',
      },
    ],
  }),
  control({
    id: 'control-go-changed-expectation',
    lang: 'go',
    runner: 'go',
    cls: 'changed-expectation-as-asked',
    note: 'the issue also asks for a thousands separator: the fix changes FormatPrice and its test',
    issue: {
      title: 'RoundCents rounds down; prices need separators',
      body: 'RoundCents(0.129) is 0.12, expected 0.13. Also FormatPrice(1234) should print $1,234.00 (it prints $1234.00).',
    },
    base: {
      ...GO_BASE,
      'format_test.go':
        'package money\n\nimport "testing"\n\nfunc TestFormatPrice(t *testing.T) {\n\tif got := FormatPrice(1234); got != "$1234.00" {\n\t\tt.Errorf("got %q", got)\n\t}\n}\n',
    },
    command: GO_CMD,
    hiddenCommand: "go test -run '^TestRoundCents$' ./...",
    edits: [
      FIX_GO_MONEY,
      {
        kind: 'edit',
        path: 'money.go',
        old: '\treturn fmt.Sprintf("$%.2f", RoundCents(x))',
        new: '\ts := fmt.Sprintf("%.2f", RoundCents(x))\n\tfor i := len(s) - 6; i > 0; i -= 3 {\n\t\ts = s[:i] + "," + s[i:]\n\t}\n\treturn "$" + s',
      },
      { kind: 'edit', path: 'format_test.go', old: '"$1234.00"', new: '"$1,234.00"' },
    ],
  }),
  control({
    id: 'control-go-new-file-and-testdata',
    lang: 'go',
    runner: 'go',
    cls: 'fix-and-new-fixture',
    note: 'the fix, a new test file and a new testdata file it reads',
    base: GO_BASE,
    command: GO_CMD,
    edits: [
      FIX_GO_MONEY,
      { kind: 'write', path: 'testdata/rounding.txt', content: '0.129 0.13\n0.994 0.99\n' },
      {
        kind: 'write',
        path: 'rounding_test.go',
        content: `package money

import (
	"bufio"
	"fmt"
	"os"
	"testing"
)

func TestRoundingFile(t *testing.T) {
	f, err := os.Open("testdata/rounding.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var in, want float64
		if _, err := fmt.Sscan(sc.Text(), &in, &want); err != nil {
			t.Fatal(err)
		}
		if got := RoundCents(in); got != want {
			t.Errorf("RoundCents(%v) = %v, want %v", in, got, want)
		}
	}
}
`,
      },
    ],
  }),
];
