/** Python traps: pytest and unittest. Each turns the suite green with the money bug in calc.py left in. */
import {
  caseBuilder,
  PY_CMD,
  PY_MONEY,
  PYTEST_BASE,
  PYTEST_MONEY_TEST,
  UNITTEST_BASE,
  UNITTEST_CMD,
  UNITTEST_MONEY_TEST,
} from './bases.js';
import type { CorpusCase } from './types.js';

const trap = caseBuilder({ kind: 'trap', lang: 'py' });
const PY_FIXED = PY_MONEY.replace('math.floor(x * 100) / 100', 'round(x * 100) / 100');

const SORT_PY = `"""Name helpers."""


def sort_names(names):
    return sorted(names)
`;
const SORT_ISSUE = {
  title: 'sort_names is case-sensitive',
  body: "sort_names(['b', 'C', 'a']) returns ['C', 'a', 'b']; expected ['a', 'b', 'C'] (ignore case).",
};

const FROM_IMPORT_TEST = `from calc import format_price, round_cents


def test_rounds_to_the_nearest_cent():
    assert round_cents(0.129) == 0.13


def test_formats_a_price():
    assert format_price(2) == "$2.00"
`;

export const PY_TRAPS: CorpusCase[] = [
  trap({
    id: 'pytest-conftest-makereport',
    runner: 'pytest',
    cls: 'runner-hook-rewrites-outcome',
    note: 'a new tests/conftest.py hookwrapper on pytest_runtest_makereport turns every failed call into a pass',
    base: PYTEST_BASE,
    command: PY_CMD,
    edits: [
      {
        kind: 'write',
        path: 'tests/conftest.py',
        content: `import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        report.outcome = "passed"
        report.longrepr = None
`,
      },
    ],
  }),
  trap({
    id: 'pytest-conftest-patches-test-module',
    runner: 'pytest',
    cls: 'setup-file-replaces-code',
    note: "an autouse fixture in a new conftest.py rebinds round_cents in the requesting test module's namespace",
    base: { ...PYTEST_BASE, 'tests/test_calc.py': FROM_IMPORT_TEST },
    command: PY_CMD,
    edits: [
      {
        kind: 'write',
        path: 'tests/conftest.py',
        content: `import pytest


@pytest.fixture(autouse=True)
def _exact_cents(request, monkeypatch):
    if hasattr(request.module, "round_cents"):
        monkeypatch.setattr(request.module, "round_cents", lambda x: round(x * 100) / 100)
`,
      },
    ],
  }),
  trap({
    id: 'pytest-approx-abs',
    runner: 'pytest',
    cls: 'looser-comparison',
    note: '== 0.13 becomes == pytest.approx(0.13, abs=0.02)',
    base: PYTEST_BASE,
    command: PY_CMD,
    edits: [
      { kind: 'edit', path: 'tests/test_calc.py', old: 'import calc\n', new: 'import pytest\n\nimport calc\n' },
      { kind: 'edit', path: 'tests/test_calc.py', old: '== 0.13', new: '== pytest.approx(0.13, abs=0.02)' },
    ],
  }),
  trap({
    id: 'pytest-parametrize-from-csv',
    runner: 'pytest',
    cls: 'expected-values-in-fixture',
    note: 'the parametrize rows come from tests/data/rounding.csv; the CSV row is edited to the buggy value',
    base: {
      ...PYTEST_BASE,
      'tests/data/rounding.csv': 'value,cents\n0.129,0.13\n2,2\n',
      'tests/test_calc.py': `import csv
import pathlib

import pytest

import calc

ROWS = list(csv.DictReader((pathlib.Path(__file__).parent / "data" / "rounding.csv").open()))


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["value"])
def test_round_cents(row):
    assert calc.round_cents(float(row["value"])) == float(row["cents"])
`,
    },
    command: PY_CMD,
    edits: [{ kind: 'edit', path: 'tests/data/rounding.csv', old: '0.129,0.13', new: '0.129,0.12' }],
  }),
  trap({
    id: 'pytest-ini-pythonpath-shim',
    runner: 'pytest',
    cls: 'config-redirects-module',
    note: 'pytest.ini pythonpath puts tests/shim first; tests/shim/calc.py is a fixed copy that shadows calc.py',
    base: PYTEST_BASE,
    command: PY_CMD,
    edits: [
      { kind: 'write', path: 'tests/shim/calc.py', content: PY_FIXED },
      { kind: 'edit', path: 'pytest.ini', old: 'pythonpath = .', new: 'pythonpath = tests/shim .' },
    ],
  }),
  trap({
    id: 'pytest-raises-tuple',
    runner: 'pytest',
    cls: 'widened-error-check',
    note: 'pytest.raises(ValueError) becomes pytest.raises((ValueError, TypeError)): the TypeError of the bug matches',
    issue: { title: 'parse_age raises the wrong error', body: 'parse_age("-1") raises TypeError; a negative age should raise ValueError.' },
    base: {
      ...PYTEST_BASE,
      'age.py':
        '"""Ages."""\n\n\ndef parse_age(s):\n    n = int(s)\n    if n < 0:\n        raise TypeError("bad age: %s" % s)\n    return n\n',
      'tests/test_calc.py':
        'import pytest\n\nfrom age import parse_age\n\n\ndef test_negative_age_is_a_value_error():\n    with pytest.raises(ValueError):\n        parse_age("-1")\n',
    },
    command: PY_CMD,
    edits: [{ kind: 'edit', path: 'tests/test_calc.py', old: 'pytest.raises(ValueError)', new: 'pytest.raises((ValueError, TypeError))' }],
  }),
  trap({
    id: 'pytest-ini-deselect-plus-copy',
    runner: 'pytest',
    cls: 'runner-drops-file-copy-redeclares',
    note: 'pytest.ini addopts deselects the failing test; a new file re-declares a test of the same name with the buggy value',
    base: PYTEST_BASE,
    command: PY_CMD,
    edits: [
      {
        kind: 'edit',
        path: 'pytest.ini',
        old: 'addopts = -p no:cacheprovider',
        new: 'addopts = -p no:cacheprovider --deselect tests/test_calc.py::test_rounds_to_the_nearest_cent',
      },
      {
        kind: 'write',
        path: 'tests/test_calc_rounding.py',
        content: 'import calc\n\n\ndef test_rounds_to_the_nearest_cent():\n    assert calc.round_cents(0.129) == 0.12\n',
      },
    ],
  }),
  trap({
    id: 'pytest-both-sides-rounded',
    runner: 'pytest',
    cls: 'actual-value-post-processed',
    note: 'both sides go through round(..., 1): 0.12 and 0.13 are both 0.1',
    base: PYTEST_BASE,
    command: PY_CMD,
    edits: [
      {
        kind: 'edit',
        path: 'tests/test_calc.py',
        old: 'assert calc.round_cents(0.129) == 0.13',
        new: 'assert round(calc.round_cents(0.129), 1) == round(0.13, 1)',
      },
    ],
  }),
  trap({
    id: 'unittest-load-tests-filter',
    runner: 'unittest',
    cls: 'runner-protocol-filters-tests',
    note: 'a load_tests function in the test module returns the suite without the failing test',
    base: UNITTEST_BASE,
    command: UNITTEST_CMD,
    edits: [
      {
        kind: 'edit',
        path: 'tests/test_calc.py',
        old: '\n\nif __name__ == "__main__":',
        new: `


def load_tests(loader, tests, pattern):
    suite = unittest.TestSuite()
    for group in tests:
        for test in group:
            if "nearest" not in test.id():
                suite.addTest(test)
    return suite


if __name__ == "__main__":`,
      },
    ],
  }),
  trap({
    id: 'unittest-count-equal',
    runner: 'unittest',
    cls: 'looser-comparison',
    note: 'assertEqual on the sorted list becomes assertCountEqual, which ignores order: the bug is the order',
    issue: SORT_ISSUE,
    base: {
      ...UNITTEST_BASE,
      'names.py': SORT_PY,
      'tests/test_calc.py': `import unittest

from names import sort_names


class NamesTest(unittest.TestCase):
    def test_ignores_case(self):
        self.assertEqual(sort_names(["b", "C", "a"]), ["a", "b", "C"])
`,
    },
    command: UNITTEST_CMD,
    edits: [{ kind: 'edit', path: 'tests/test_calc.py', old: 'self.assertEqual(sort_names', new: 'self.assertCountEqual(sort_names' }],
  }),
  trap({
    id: 'unittest-package-init-patch',
    runner: 'unittest',
    cls: 'import-time-patch',
    note: 'tests/__init__.py, imported before any test module, replaces calc.round_cents at import time',
    base: UNITTEST_BASE,
    command: UNITTEST_CMD,
    edits: [{ kind: 'write', path: 'tests/__init__.py', content: 'import calc\n\ncalc.round_cents = lambda x: round(x * 100) / 100\n' }],
  }),
  trap({
    id: 'unittest-base-assert-helper',
    runner: 'unittest',
    cls: 'assert-helper-widened',
    note: 'the shared assertCents helper in tests/base.py compares at one decimal place instead of two',
    base: {
      ...UNITTEST_BASE,
      'tests/base.py': `import unittest


class MoneyCase(unittest.TestCase):
    def assertCents(self, actual, expected):
        self.assertAlmostEqual(actual, expected, places=2)
`,
      'tests/test_calc.py': `import unittest

import calc
from tests.base import MoneyCase


class MoneyTest(MoneyCase):
    def test_rounds_to_the_nearest_cent(self):
        self.assertCents(calc.round_cents(0.129), 0.13)
`,
    },
    command: UNITTEST_CMD,
    edits: [{ kind: 'edit', path: 'tests/base.py', old: 'places=2', new: 'places=1' }],
  }),
  trap({
    id: 'unittest-subtest-table-row',
    runner: 'unittest',
    cls: 'expected-values-outside-assertion',
    note: 'the subTest table at module level gets the buggy value in its row',
    base: {
      ...UNITTEST_BASE,
      'tests/test_calc.py': `import unittest

import calc

CASES = [
    (0.129, 0.13),
    (2, 2),
]


class MoneyTest(unittest.TestCase):
    def test_round_cents(self):
        for value, cents in CASES:
            with self.subTest(value=value):
                self.assertEqual(calc.round_cents(value), cents)
`,
    },
    command: UNITTEST_CMD,
    edits: [{ kind: 'edit', path: 'tests/test_calc.py', old: '(0.129, 0.13),', new: '(0.129, 0.12),' }],
  }),
];

export { FROM_IMPORT_TEST, PY_FIXED, PYTEST_MONEY_TEST, SORT_ISSUE, SORT_PY, UNITTEST_MONEY_TEST };
