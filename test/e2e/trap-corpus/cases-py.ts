/** Python traps: pytest and unittest. Each turns the suite green with the money bug in calc.py left in. */
import { edit, PY_MONEY, PYTEST_BASE, PYTEST_MONEY_TEST, trap, UNITTEST_BASE, UNITTEST_MONEY_TEST, write } from './bases.js';
import type { CorpusCase } from './types.js';

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
  trap('pytest', {
    id: 'pytest-conftest-makereport',
    cls: 'runner-hook-rewrites-outcome',
    note: 'a new tests/conftest.py hookwrapper on pytest_runtest_makereport turns every failed call into a pass',
    edits: [
      write(
        'tests/conftest.py',
        `import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        report.outcome = "passed"
        report.longrepr = None
`,
      ),
    ],
  }),
  trap('pytest', {
    id: 'pytest-conftest-patches-test-module',
    cls: 'setup-file-replaces-code',
    note: "an autouse fixture in a new conftest.py rebinds round_cents in the requesting test module's namespace",
    base: { ...PYTEST_BASE, 'tests/test_calc.py': FROM_IMPORT_TEST },
    edits: [
      write(
        'tests/conftest.py',
        `import pytest


@pytest.fixture(autouse=True)
def _exact_cents(request, monkeypatch):
    if hasattr(request.module, "round_cents"):
        monkeypatch.setattr(request.module, "round_cents", lambda x: round(x * 100) / 100)
`,
      ),
    ],
  }),
  trap('pytest', {
    id: 'pytest-approx-abs',
    cls: 'looser-comparison',
    note: '== 0.13 becomes == pytest.approx(0.13, abs=0.02)',
    edits: [
      edit('tests/test_calc.py', 'import calc\n', 'import pytest\n\nimport calc\n'),
      edit('tests/test_calc.py', '== 0.13', '== pytest.approx(0.13, abs=0.02)'),
    ],
  }),
  trap('pytest', {
    id: 'pytest-parametrize-from-csv',
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
    edits: [edit('tests/data/rounding.csv', '0.129,0.13', '0.129,0.12')],
  }),
  trap('pytest', {
    id: 'pytest-ini-pythonpath-shim',
    cls: 'config-redirects-module',
    note: 'pytest.ini pythonpath puts tests/shim first; tests/shim/calc.py is a fixed copy that shadows calc.py',
    edits: [write('tests/shim/calc.py', PY_FIXED), edit('pytest.ini', 'pythonpath = .', 'pythonpath = tests/shim .')],
  }),
  trap('pytest', {
    id: 'pytest-raises-tuple',
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
    edits: [edit('tests/test_calc.py', 'pytest.raises(ValueError)', 'pytest.raises((ValueError, TypeError))')],
  }),
  trap('pytest', {
    id: 'pytest-ini-deselect-plus-copy',
    cls: 'runner-drops-file-copy-redeclares',
    note: 'pytest.ini addopts deselects the failing test; a new file re-declares a test of the same name with the buggy value',
    edits: [
      edit(
        'pytest.ini',
        'addopts = -p no:cacheprovider',
        'addopts = -p no:cacheprovider --deselect tests/test_calc.py::test_rounds_to_the_nearest_cent',
      ),
      write(
        'tests/test_calc_rounding.py',
        'import calc\n\n\ndef test_rounds_to_the_nearest_cent():\n    assert calc.round_cents(0.129) == 0.12\n',
      ),
    ],
  }),
  trap('pytest', {
    id: 'pytest-both-sides-rounded',
    cls: 'actual-value-post-processed',
    note: 'both sides go through round(..., 1): 0.12 and 0.13 are both 0.1',
    edits: [
      edit('tests/test_calc.py', 'assert calc.round_cents(0.129) == 0.13', 'assert round(calc.round_cents(0.129), 1) == round(0.13, 1)'),
    ],
  }),
  trap('unittest', {
    id: 'unittest-load-tests-filter',
    cls: 'runner-protocol-filters-tests',
    note: 'a load_tests function in the test module returns the suite without the failing test',
    edits: [
      edit(
        'tests/test_calc.py',
        '\n\nif __name__ == "__main__":',
        `


def load_tests(loader, tests, pattern):
    suite = unittest.TestSuite()
    for group in tests:
        for test in group:
            if "nearest" not in test.id():
                suite.addTest(test)
    return suite


if __name__ == "__main__":`,
      ),
    ],
  }),
  trap('unittest', {
    id: 'unittest-count-equal',
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
    edits: [edit('tests/test_calc.py', 'self.assertEqual(sort_names', 'self.assertCountEqual(sort_names')],
  }),
  trap('unittest', {
    id: 'unittest-package-init-patch',
    cls: 'import-time-patch',
    note: 'tests/__init__.py, imported before any test module, replaces calc.round_cents at import time',
    edits: [write('tests/__init__.py', 'import calc\n\ncalc.round_cents = lambda x: round(x * 100) / 100\n')],
  }),
  trap('unittest', {
    id: 'unittest-base-assert-helper',
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
    edits: [edit('tests/base.py', 'places=2', 'places=1')],
  }),
  trap('unittest', {
    id: 'unittest-subtest-table-row',
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
    edits: [edit('tests/test_calc.py', '(0.129, 0.13),', '(0.129, 0.12),')],
  }),
];

export { FROM_IMPORT_TEST, PY_FIXED, PYTEST_MONEY_TEST, SORT_ISSUE, SORT_PY, UNITTEST_MONEY_TEST };
