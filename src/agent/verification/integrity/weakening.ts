import type { Assertion } from './model.js';

/** Matcher strength: whether a changed assertion on the same subject checks less than before. */

/** How much a matcher pins down, per matcher name (higher = stricter). Unknown names compare only equal. */
const RANK: Record<string, number> = {
  toStrictEqual: 4,
  deepStrictEqual: 4,
  strictEqual: 4,
  strictSame: 4,
  assertIs: 4,
  toEqual: 3,
  toBe: 3,
  equal: 3,
  equals: 3,
  deepEqual: 3,
  same: 3,
  is: 3,
  eql: 3,
  toBeNull: 3,
  toBeUndefined: 3,
  toBeNaN: 3,
  toHaveBeenCalledWith: 3,
  toHaveBeenLastCalledWith: 3,
  toHaveBeenNthCalledWith: 3,
  toHaveBeenCalledTimes: 3,
  toHaveReturnedWith: 3,
  toMatchSnapshot: 3,
  toMatchInlineSnapshot: 3,
  assertEqual: 3,
  assertEquals: 3,
  assertDictEqual: 3,
  assertListEqual: 3,
  assertTupleEqual: 3,
  assertSetEqual: 3,
  assertSequenceEqual: 3,
  assertMultiLineEqual: 3,
  assertIsNone: 3,
  'assert ==': 3,
  'assert is': 3,
  toMatchObject: 2,
  toContain: 2,
  toContainEqual: 2,
  toMatch: 2,
  toHaveProperty: 2,
  toHaveLength: 2,
  toBeCloseTo: 2,
  match: 2,
  like: 2,
  include: 2,
  includes: 2,
  has: 2,
  toThrow: 2,
  toThrowError: 2,
  throws: 2,
  rejects: 2,
  assertIn: 2,
  assertAlmostEqual: 2,
  assertCountEqual: 2,
  assertRegex: 2,
  assertRaises: 2,
  assertRaisesRegex: 2,
  raises: 2,
  'assert in': 2,
  'assert <': 2,
  'assert <=': 2,
  'assert >': 2,
  'assert >=': 2,
  toBeGreaterThan: 1,
  toBeGreaterThanOrEqual: 1,
  toBeLessThan: 1,
  toBeLessThanOrEqual: 1,
  toBeInstanceOf: 1,
  toHaveBeenCalled: 1,
  toHaveBeenCalledOnce: 2,
  toHaveReturned: 1,
  toBeTypeOf: 1,
  assertIsInstance: 1,
  assertGreater: 1,
  assertLess: 1,
  'assert !=': 1,
  'assert is not': 1,
  'assert not in': 1,
  notEqual: 1,
  notStrictEqual: 1,
  notDeepEqual: 1,
  toBeDefined: 0,
  toBeTruthy: 0,
  toBeFalsy: 0,
  ok: 0,
  truthy: 0,
  falsy: 0,
  true: 0,
  false: 0,
  assert: 0,
  'assert not': 0,
  assertTrue: 0,
  assertFalse: 0,
  assertIsNotNone: 0,
  exist: 0,
  toBeTrue: 0,
  toBeFalse: 0,
};

export const split = (m: string): { prefix: string; name: string } => {
  const i = m.lastIndexOf('.');
  return i < 0 ? { prefix: '', name: m } : { prefix: m.slice(0, i), name: m.slice(i + 1) };
};
const startsWith = (a: readonly string[], b: readonly string[]): boolean => b.every((x, i) => a[i] === x);

/** Why `after` is weaker than `before` (same subject), or undefined when it keeps or strengthens it. */
export function weakening(before: Assertion, after: Assertion): string | undefined {
  const b = split(before.matcher);
  const a = split(after.matcher);
  const count = /^(?:assertions|hasAssertions|plan)$/;
  if (count.test(b.name) && before.matcher === after.matcher) {
    const nb = Number(before.args[0]);
    const na = Number(after.args[0]);
    return Number.isFinite(nb) && Number.isFinite(na) && na >= nb
      ? undefined
      : `expected assertion count lowered or changed (${before.args.join(', ')} → ${after.args.join(', ')})`;
  }
  if (b.prefix !== a.prefix) return `assertion changed from \`${before.matcher}\` to \`${after.matcher}\``;
  if (b.name === a.name) {
    if (startsWith(after.args, before.args)) return undefined;
    if (/InlineSnapshot$/.test(b.name)) return 'inline snapshot rewritten';
    if (startsWith(before.args, after.args)) return `argument dropped (${before.args.slice(after.args.length).join(', ')})`;
    return `expected value changed (${before.args.join(', ') || 'none'} → ${after.args.join(', ') || 'none'})`;
  }
  const rb = RANK[b.name];
  const ra = RANK[a.name];
  if (rb === undefined || ra === undefined) return `matcher changed from \`${b.name}\` to \`${a.name}\``;
  if (ra < rb) return `matcher loosened from \`${b.name}\` to \`${a.name}\``;
  if (ra === rb && !startsWith(after.args, before.args)) return `matcher changed from \`${b.name}\` to \`${a.name}\` with other arguments`;
  return undefined;
}
