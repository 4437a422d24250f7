/**
 * The small JS project the test-integrity tests change: src/math.js and a jest-style test of it, and
 * edits of a fixture file written as an agent's change would leave them.
 */

export const MATH_SRC = 'export const add = (a, b) => a + b;\nexport const mul = (a, b) => a * b;\n';

export const MATH_TEST = `import { add, mul } from '../src/math.js';
describe('math', () => {
  it('adds', () => {
    expect(add(1, 2)).toBe(3);
    expect(add(-1, 1)).toBe(0);
  });
  it('multiplies', () => {
    expect(mul(2, 3)).toBe(6);
  });
});
`;

/** The first assertion of MATH_TEST's `adds` test, as a whole line. */
export const ADD_LINE = '    expect(add(1, 2)).toBe(3);\n';

/** Edits of the fixture file `path` (whose base text is `text`): `{ [path]: text with from replaced by to }`. */
export const editOf =
  (path: string, text: string) =>
  (from: string, to: string): Record<string, string> => ({ [path]: text.replace(from, to) });

/** An edit of test/math.test.js (MATH_TEST). */
export const mathTest = editOf('test/math.test.js', MATH_TEST);
