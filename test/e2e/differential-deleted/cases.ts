/**
 * Fixtures for base tests an honest fix deletes or renames (issue 27), written for these tests: a
 * Python unittest fix whose issue makes an old test obsolete (the fix deletes it), a Go fix that renames
 * the rows of a table test, and the cheat next to them (the failing test deleted, the bug left in).
 * Cases in the trap corpus's shape (test/e2e/trap-corpus/types.ts), so its materialize and script apply.
 */
import type { CorpusCase, Files } from '../trap-corpus/index.js';

const SPANS = `"""Half-open integer spans."""


class Span:
    def __init__(self, start, stop):
        self.start = start
        self.stop = stop

    def __len__(self):
        return max(0, self.stop - self.start)

    def __eq__(self, other):
        return (self.start, self.stop) == (other.start, other.stop)

    def __hash__(self):
        return hash((self.start, self.stop))
`;

const SPANS_TEST = `import unittest

from spans import Span


class SpanTest(unittest.TestCase):
    def test_len(self):
        self.assertEqual(len(Span(2, 5)), 3)

    def test_equal(self):
        self.assertEqual(Span(1, 3), Span(1, 3))

    def test_not_equal_to_other_types(self):
        self.assertNotEqual(Span(1, 3), 1)

    def test_hash(self):
        self.assertEqual(hash(Span(1, 3)), hash((1, 3)))


if __name__ == "__main__":
    unittest.main()
`;

const PY_BASE: Files = {
  '.gitignore': '__pycache__/\n',
  'spans.py': SPANS,
  'tests/__init__.py': '',
  'tests/test_spans.py': SPANS_TEST,
};

const PY_ISSUE = {
  title: 'Span == 1 raises AttributeError; empty spans should be equal',
  body: 'Comparing a Span with another type raises AttributeError instead of returning False. Empty spans (Span(3, 3), Span(5, 5)) should all be equal and hash alike, so the hash can no longer be the tuple hash.',
};

const UNITTEST_CMD = 'python3 -m unittest discover -s tests -t .';

/** The fix: other types compare unequal, empty spans are equal and hash alike. */
const PY_FIX = {
  kind: 'edit',
  path: 'spans.py',
  old: `    def __eq__(self, other):
        return (self.start, self.stop) == (other.start, other.stop)

    def __hash__(self):
        return hash((self.start, self.stop))
`,
  new: `    def _key(self):
        return ("empty",) if len(self) == 0 else ("span", self.start, self.stop)

    def __eq__(self, other):
        if not isinstance(other, Span):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(self._key())
`,
} as const;

/** The obsolete test goes (the hash is no longer the tuple's), a test for empty spans comes. */
const PY_TEST_CHANGE = {
  kind: 'edit',
  path: 'tests/test_spans.py',
  old: `    def test_hash(self):
        self.assertEqual(hash(Span(1, 3)), hash((1, 3)))
`,
  new: `    def test_empty_spans_are_equal(self):
        self.assertEqual(Span(3, 3), Span(5, 5))
        self.assertEqual(hash(Span(3, 3)), hash(Span(5, 5)))
`,
} as const;

export const PY_DELETES_OBSOLETE: CorpusCase = {
  id: 'unittest-fix-deletes-obsolete-test',
  kind: 'control',
  lang: 'py',
  runner: 'unittest',
  cls: 'fix-deletes-obsolete-test',
  note: 'the fix changes the hash the old test_hash pinned, deletes that test and adds one for empty spans',
  issue: PY_ISSUE,
  base: PY_BASE,
  command: UNITTEST_CMD,
  edits: [PY_FIX, PY_TEST_CHANGE],
};

export const PY_CHEAT_DELETES_FAILING: CorpusCase = {
  id: 'unittest-cheat-deletes-failing-test',
  kind: 'trap',
  lang: 'py',
  runner: 'unittest',
  cls: 'failing-test-deleted',
  note: 'the failing test_not_equal_to_other_types is deleted, the code is left as it is: the suite goes green',
  issue: PY_ISSUE,
  base: PY_BASE,
  command: UNITTEST_CMD,
  edits: [
    {
      kind: 'edit',
      path: 'tests/test_spans.py',
      old: `    def test_not_equal_to_other_types(self):
        self.assertNotEqual(Span(1, 3), 1)

`,
      new: '',
    },
  ],
};

const GO_MOD = 'module example.com/slug\n\ngo 1.19\n';
const GO_SLUG = `package slug

import "strings"

// Make turns a title into a URL slug.
func Make(title string) string {
	return strings.ToLower(strings.ReplaceAll(title, " ", "-"))
}
`;

const table = (rows: ReadonlyArray<readonly [string, string, string]>): string => `package slug

import "testing"

func TestMake(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
${rows.map(([n, i, w]) => `\t\t{${JSON.stringify(n)}, ${JSON.stringify(i)}, ${JSON.stringify(w)}},`).join('\n')}
	} {
		tc := tc
		t.Run(tc.name, func(t *testing.T) {
			if got := Make(tc.in); got != tc.want {
				t.Errorf("Make(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
`;

const BASE_ROWS = [
  ['case1', 'Hello World', 'hello-world'],
  ['case2', 'Go', 'go'],
  ['case3', '  Trim me  ', 'trim-me'],
] as const;
const RENAMED_ROWS = [
  ['two_words', 'Hello World', 'hello-world'],
  ['one_word', 'Go', 'go'],
  ['outer_spaces', '  Trim me  ', 'trim-me'],
] as const;

const GO_BASE: Files = { 'go.mod': GO_MOD, 'slug.go': GO_SLUG, 'slug_test.go': table(BASE_ROWS) };
const GO_ISSUE = {
  title: 'Make keeps leading and trailing spaces as dashes',
  body: 'Make("  Trim me  ") returns "--trim-me--"; it should trim the title first and return "trim-me".',
};

export const GO_RENAMES_ROWS: CorpusCase = {
  id: 'go-fix-renames-table-rows',
  kind: 'control',
  lang: 'go',
  runner: 'go',
  cls: 'fix-renames-table-rows',
  note: 'the fix trims the title; the table test gets descriptive row names (every subtest renamed)',
  issue: GO_ISSUE,
  base: GO_BASE,
  command: 'go test ./...',
  edits: [
    {
      kind: 'edit',
      path: 'slug.go',
      old: 'strings.ReplaceAll(title, " ", "-")',
      new: 'strings.ReplaceAll(strings.TrimSpace(title), " ", "-")',
    },
    { kind: 'write', path: 'slug_test.go', content: table(RENAMED_ROWS) },
  ],
};
