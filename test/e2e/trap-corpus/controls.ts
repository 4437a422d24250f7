/**
 * Honest controls: legitimate fixes that change the source and add or change tests. Each must pass the
 * suite, pass the hidden check (the base's failing tests on the fixed source), and its edited tests must
 * fail on the base's source (red → green).
 */
import { control, edit, FIX_GO_MONEY, FIX_MONEY, FIX_PY_MONEY, GO_BASE, JEST_BASE, PY_CMD, PYTEST_BASE, write } from './bases.js';
import { TABLE_TEST } from './cases-go.js';
import type { CorpusCase } from './types.js';

const PARAM_TEST = `import pytest

import calc


@pytest.mark.parametrize("value, cents", [(0.129, 0.13), (2, 2)])
def test_round_cents(value, cents):
    assert calc.round_cents(value) == cents
`;

export const CONTROLS: CorpusCase[] = [
  control('jest', {
    id: 'control-jest-fix-only',
    cls: 'fix-only',
    note: 'the source fix alone',
    edits: [FIX_MONEY],
  }),
  control('jest', {
    id: 'control-jest-fix-and-new-test',
    cls: 'fix-and-new-test',
    note: 'the fix and a new test in the same file for the formatted price of the issue',
    edits: [
      FIX_MONEY,
      edit(
        'test/money.test.js',
        "test('formats a price with two decimals'",
        "test('formats a rounded price', () => {\n  expect(formatPrice(0.129)).toBe('$0.13');\n});\n\ntest('formats a price with two decimals'",
      ),
    ],
  }),
  control('jest', {
    id: 'control-jest-snapshot-as-asked',
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
    hiddenCommand: "node_modules/.bin/jest --ci -t 'formats with the currency code'",
    edits: [
      edit('src/money.js', "(x) => '$' + exports", "(x) => 'USD ' + exports"),
      edit('test/__snapshots__/money.test.js.snap', '"$1.00\n$2.50"', '"USD 1.00\nUSD 2.50"'),
    ],
  }),
  control('vitest', {
    id: 'control-vitest-fix-and-new-file',
    cls: 'fix-and-new-test-file',
    note: 'the fix and a new test file for formatPrice',
    edits: [
      FIX_MONEY,
      write(
        'test/format.test.js',
        "import { expect, test } from 'vitest';\nimport { formatPrice } from '../src/money.js';\n\ntest('formats a rounded price', () => {\n  expect(formatPrice(0.129)).toBe('$0.13');\n});\n",
      ),
    ],
  }),
  control('mocha', {
    id: 'control-mocha-fix-and-fixture',
    cls: 'fix-and-new-fixture',
    note: 'the fix and a new test that reads its cases from a new fixture file',
    edits: [
      FIX_MONEY,
      write('test/fixtures/prices.json', '[["0.129", "$0.13"], ["0.5", "$0.50"]]\n'),
      write(
        'test/prices.test.js',
        `const assert = require('node:assert/strict');
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
      ),
    ],
  }),
  control('node-test', {
    id: 'control-node-fix-and-new-file',
    cls: 'fix-and-new-test-file',
    note: 'the fix and a new node:test file with an edge case',
    edits: [
      FIX_MONEY,
      write(
        'test/money-edge.test.js',
        "const test = require('node:test');\nconst assert = require('node:assert/strict');\nconst { roundCents } = require('../src/money');\n\ntest('rounds half a cent up', () => {\n  assert.equal(roundCents(0.125), 0.13);\n});\n",
      ),
    ],
  }),
  control('pytest', {
    id: 'control-pytest-parametrize-row',
    cls: 'parametrize-gains-row',
    note: 'the fix and a new row in the parametrize table',
    base: { ...PYTEST_BASE, 'tests/test_calc.py': PARAM_TEST },
    edits: [FIX_PY_MONEY, edit('tests/test_calc.py', '[(0.129, 0.13), (2, 2)]', '[(0.129, 0.13), (2, 2), (0.996, 1.0)]')],
  }),
  control('pytest', {
    id: 'control-pytest-changed-expectation',
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
    hiddenCommand: `${PY_CMD} tests/test_calc.py::test_rounds_to_the_nearest_cent`,
    edits: [
      edit(
        'calc.py',
        'def round_cents(x):\n    return math.floor(x * 100) / 100',
        'def round_cents(x):\n    if x is None:\n        return 0\n    return round(x * 100) / 100',
      ),
      edit(
        'tests/test_calc.py',
        'def test_none():\n    with pytest.raises(TypeError):\n        calc.round_cents(None)',
        'def test_none():\n    assert calc.round_cents(None) == 0',
      ),
    ],
  }),
  control('pytest', {
    id: 'control-pytest-new-conftest-fixture',
    cls: 'fix-and-new-conftest',
    note: 'the fix and a new conftest.py fixture (data only) used by a new test',
    edits: [
      FIX_PY_MONEY,
      write('tests/conftest.py', 'import pytest\n\n\n@pytest.fixture\ndef prices():\n    return [0.129, 0.994]\n'),
      write(
        'tests/test_prices.py',
        'import calc\n\n\ndef test_formats_prices(prices):\n    assert [calc.format_price(p) for p in prices] == ["$0.13", "$0.99"]\n',
      ),
    ],
  }),
  control('unittest', {
    id: 'control-unittest-new-method',
    cls: 'fix-and-new-test',
    note: 'the fix and a new test method',
    edits: [
      FIX_PY_MONEY,
      edit(
        'tests/test_calc.py',
        '    def test_formats_a_price(self):',
        '    def test_formats_a_rounded_price(self):\n        self.assertEqual(calc.format_price(0.129), "$0.13")\n\n    def test_formats_a_price(self):',
      ),
    ],
  }),
  control('go', {
    id: 'control-go-table-rows',
    cls: 'table-gains-rows',
    note: 'the fix and two new rows in the table-driven test',
    base: { ...GO_BASE, 'round_test.go': TABLE_TEST },
    edits: [
      FIX_GO_MONEY,
      edit('round_test.go', '{"whole", 2, 2},', '{"whole", 2, 2},\n\t\t{"half", 0.125, 0.13},\n\t\t{"down", 0.121, 0.12},'),
    ],
  }),
  control('go', {
    id: 'control-go-changed-expectation',
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
    hiddenCommand: "go test -run '^TestRoundCents$' ./...",
    edits: [
      FIX_GO_MONEY,
      edit(
        'money.go',
        '\treturn fmt.Sprintf("$%.2f", RoundCents(x))',
        '\ts := fmt.Sprintf("%.2f", RoundCents(x))\n\tfor i := len(s) - 6; i > 0; i -= 3 {\n\t\ts = s[:i] + "," + s[i:]\n\t}\n\treturn "$" + s',
      ),
      edit('format_test.go', '"$1234.00"', '"$1,234.00"'),
    ],
  }),
  control('go', {
    id: 'control-go-new-file-and-testdata',
    cls: 'fix-and-new-fixture',
    note: 'the fix, a new test file and a new testdata file it reads',
    edits: [
      FIX_GO_MONEY,
      write('testdata/rounding.txt', '0.129 0.13\n0.994 0.99\n'),
      write(
        'rounding_test.go',
        `package money

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
      ),
    ],
  }),
];
