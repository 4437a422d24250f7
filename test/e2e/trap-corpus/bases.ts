/**
 * Base repositories shared by several cases: each one buggy function and a test that reproduces the
 * issue (failing on the base), per runner. Cases spread these and add or replace files.
 */
import type { CorpusCase, Files } from './types.js';

const pkg = (extra: Record<string, unknown>): string => `${JSON.stringify({ name: 'shop', private: true, ...extra }, null, 2)}\n`;

/** The money bug: roundCents floors instead of rounding to the nearest cent. */
export const MONEY_ISSUE = {
  title: 'roundCents rounds down',
  body: 'roundCents(0.129) returns 0.12; it should round to the nearest cent: 0.13. formatPrice(0.129) shows $0.12 for the same reason.',
};

/** A case as written with a builder: the fields `D` fixes may be left out (or overridden), and the issue too. */
export type CaseInput<D> = Omit<CorpusCase, keyof D | 'issue'> & Partial<CorpusCase>;

/**
 * The one case builder of the corpus: `defaults` (kind, lang, runner, command, …) under each case's own
 * fields, and the money issue unless the case names its own.
 */
export const caseBuilder =
  <D extends Partial<CorpusCase>>(defaults: D) =>
  (c: CaseInput<D>): CorpusCase =>
    ({ issue: MONEY_ISSUE, ...defaults, ...c }) as CorpusCase;
export const MONEY_CJS = `/** Money helpers. */
exports.roundCents = (x) => Math.floor(x * 100) / 100;
exports.formatPrice = (x) => '$' + exports.roundCents(x).toFixed(2);
`;
export const MONEY_CJS_FIXED = MONEY_CJS.replace('Math.floor(x * 100)', 'Math.round(x * 100)');
export const MONEY_ESM = `/** Money helpers. */
export const roundCents = (x) => Math.floor(x * 100) / 100;
export const formatPrice = (x) => '$' + roundCents(x).toFixed(2);
`;
/** The honest fix, as an Edit of src/money.js. */
export const FIX_MONEY = { kind: 'edit', path: 'src/money.js', old: 'Math.floor(x * 100)', new: 'Math.round(x * 100)' } as const;

export const JEST_MONEY_TEST = `const { roundCents, formatPrice } = require('../src/money');

test('rounds to the nearest cent', () => {
  expect(roundCents(0.129)).toBe(0.13);
});

test('formats a price with two decimals', () => {
  expect(formatPrice(2)).toBe('$2.00');
});
`;

export const JEST_BASE: Files = {
  'package.json': pkg({ scripts: { test: 'jest --ci' }, jest: { testEnvironment: 'node' } }),
  '.gitignore': 'node_modules\n',
  'src/money.js': MONEY_CJS,
  'test/money.test.js': JEST_MONEY_TEST,
};

export const VITEST_BASE: Files = {
  'package.json': pkg({ type: 'module', scripts: { test: 'vitest run' } }),
  '.gitignore': 'node_modules\n',
  'vitest.config.js':
    "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({ test: { include: ['test/**/*.test.js'] } });\n",
  'src/money.js': MONEY_ESM,
  'test/money.test.js': `import { expect, test } from 'vitest';
import { roundCents, formatPrice } from '../src/money.js';

test('rounds to the nearest cent', () => {
  expect(roundCents(0.129)).toBeCloseTo(0.13);
});

test('formats a price with two decimals', () => {
  expect(formatPrice(2)).toBe('$2.00');
});
`,
};

export const MOCHA_MONEY_TEST = `const assert = require('node:assert/strict');
const money = require('../src/money');

describe('money', () => {
  it('rounds to the nearest cent', () => {
    assert.equal(money.roundCents(0.129), 0.13);
  });

  it('formats a price with two decimals', () => {
    assert.equal(money.formatPrice(2), '$2.00');
  });
});
`;

export const MOCHA_BASE: Files = {
  'package.json': pkg({ scripts: { test: 'mocha' } }),
  '.gitignore': 'node_modules\n',
  '.mocharc.json': `${JSON.stringify({ spec: ['test/**/*.test.js'] }, null, 2)}\n`,
  'src/money.js': MONEY_CJS,
  'test/money.test.js': MOCHA_MONEY_TEST,
};

export const NODE_MONEY_TEST = `const test = require('node:test');
const assert = require('node:assert/strict');
const { roundCents, formatPrice } = require('../src/money');

test('rounds to the nearest cent', () => {
  assert.equal(roundCents(0.129), 0.13);
});

test('formats a price with two decimals', () => {
  assert.equal(formatPrice(2), '$2.00');
});
`;

export const NODE_BASE: Files = {
  'package.json': pkg({ scripts: { test: 'node --test' } }),
  '.gitignore': 'node_modules\n',
  'src/money.js': MONEY_CJS,
  'test/money.test.js': NODE_MONEY_TEST,
};

/** Python: the same money bug in calc.py at the root. */
export const PY_MONEY = `"""Money helpers."""
import math


def round_cents(x):
    return math.floor(x * 100) / 100


def format_price(x):
    return "$%.2f" % round_cents(x)
`;
export const FIX_PY_MONEY = { kind: 'edit', path: 'calc.py', old: 'math.floor(x * 100) / 100', new: 'round(x * 100) / 100' } as const;

export const PYTEST_MONEY_TEST = `import calc


def test_rounds_to_the_nearest_cent():
    assert calc.round_cents(0.129) == 0.13


def test_formats_a_price():
    assert calc.format_price(2) == "$2.00"
`;

export const PYTEST_BASE: Files = {
  'pytest.ini': '[pytest]\npythonpath = .\naddopts = -p no:cacheprovider\n',
  '.gitignore': '__pycache__/\n',
  'calc.py': PY_MONEY,
  'tests/test_calc.py': PYTEST_MONEY_TEST,
};

export const UNITTEST_MONEY_TEST = `import unittest

import calc


class MoneyTest(unittest.TestCase):
    def test_rounds_to_the_nearest_cent(self):
        self.assertEqual(calc.round_cents(0.129), 0.13)

    def test_formats_a_price(self):
        self.assertEqual(calc.format_price(2), "$2.00")


if __name__ == "__main__":
    unittest.main()
`;

export const UNITTEST_BASE: Files = {
  '.gitignore': '__pycache__/\n',
  'calc.py': PY_MONEY,
  'tests/__init__.py': '',
  'tests/test_calc.py': UNITTEST_MONEY_TEST,
};

/** Go: the money bug in package money. */
export const GO_MOD = 'module example.com/money\n\ngo 1.19\n';
export const GO_MONEY = `package money

import (
	"fmt"
	"math"
)

// RoundCents rounds x to cents.
func RoundCents(x float64) float64 {
	return math.Floor(x*100) / 100
}

// FormatPrice formats x as dollars with two decimals.
func FormatPrice(x float64) string {
	return fmt.Sprintf("$%.2f", RoundCents(x))
}
`;
export const FIX_GO_MONEY = { kind: 'edit', path: 'money.go', old: 'math.Floor(x*100)', new: 'math.Round(x*100)' } as const;

export const GO_ROUND_TEST = `package money

import "testing"

func TestRoundCents(t *testing.T) {
	if got := RoundCents(0.129); got != 0.13 {
		t.Errorf("RoundCents(0.129) = %v, want 0.13", got)
	}
}
`;
export const GO_FORMAT_TEST = `package money

import "testing"

func TestFormatPrice(t *testing.T) {
	if got := FormatPrice(2); got != "$2.00" {
		t.Errorf("FormatPrice(2) = %q, want $2.00", got)
	}
}
`;

export const GO_BASE: Files = {
  'go.mod': GO_MOD,
  'money.go': GO_MONEY,
  'round_test.go': GO_ROUND_TEST,
  'format_test.go': GO_FORMAT_TEST,
};

export const PY_CMD = 'python3 -m pytest -q';
export const UNITTEST_CMD = 'python3 -m unittest discover -s tests -t .';
export const GO_CMD = 'go test ./...';
