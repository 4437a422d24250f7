const CODE = /\.(?:[cm]?[jt]sx?|py|go|rs|java|kt|kts|scala|rb|cs|php|swift|exs?|c|cc|cpp|h|hpp|m|dart|lua|clj|hs|ml|sh|bats)$/i;
const TEST_DIR = /(?:^|\/)(?:test|tests|__tests__|spec|specs|e2e)\//i;
const NOT_TEST_DIR = /(?:^|\/)(?:fixtures?|__fixtures__|testdata|__mocks__|node_modules|vendor)\//i;
const TEST_NAME = [
  /\.(?:test|spec)\.[^/]+$/i, // foo.test.ts, foo.spec.js
  /(?:^|\/)test_[^/]+\.py$/, // test_foo.py
  /_test\.(?:py|go|exs?|rb|c|cc|cpp)$/, // foo_test.py, foo_test.go
  /_spec\.rb$/, // foo_spec.rb
  /(?:^|\/)[^/]*Tests?\.(?:java|kt|cs|scala|swift|php)$/, // FooTest.java, FooTests.cs
];

/**
 * Whether a repository path (forward slashes) is a test source file: by name (`*.test.*`, `*.spec.*`,
 * `test_*.py`, `*_test.py`, `*_test.go`, `*_spec.rb`, `FooTest.java`, …) or a source file under a test
 * folder (`test/`, `tests/`, `__tests__/`, `spec/`). Fixture and test-data folders are not test sources.
 */
export function isTestFile(path: string): boolean {
  if (NOT_TEST_DIR.test(path)) return false;
  if (TEST_NAME.some((r) => r.test(path))) return true;
  return TEST_DIR.test(path) && CODE.test(path);
}
