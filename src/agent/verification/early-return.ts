const BARE_RETURN = /^\s*return\s*;?\s*(?:(?:\/\/|#).*)?$/;
/** Lines that open a test body: `it('x', () => {`, `test("x", async function () {`, `def test_x():`, `func TestX(t *testing.T) {`. */
const TEST_OPENER: RegExp[] = [
  /\b(?:it|test|specify)(?:\.\w+)*\s*\(.*(?:=>|\bfunction\b[^{]*)\s*\{\s*$/,
  /^\s*(?:async\s+)?def\s+test\w*\s*\(.*\)\s*(?:->\s*[^:]+)?:\s*$/,
  /^\s*func\s+Test\w*\s*\(.*\)\s*\{\s*$/,
];

/**
 * Whether new-file line `line` (1-based) of `lines` is a bare `return` placed first in a test body (the
 * closest non-blank line above opens a test): everything the test asserts after it never runs.
 */
export function isEarlyReturn(lines: readonly string[], line: number): boolean {
  if (!BARE_RETURN.test(lines[line - 1] ?? '')) return false;
  for (let i = line - 2; i >= 0; i--) {
    const prev = lines[i] ?? '';
    if (prev.trim() === '') continue;
    return TEST_OPENER.some((r) => r.test(prev));
  }
  return false;
}
