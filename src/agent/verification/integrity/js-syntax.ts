import type { Guard, Span } from './model.js';
import { guardsBetween, type GuardRules } from './guards.js';
import { kids, type Node } from './parse.js';

export { guarded, span } from './guards.js';

/** Syntax helpers for the JS/TS test model (tree-sitter nodes): call chains, spans, guards. */

/** A set of names written as one space-separated line. */
const words = (names: string): Set<string> => new Set(names.split(' '));

/** Functions that declare a test or a suite (and their x/f-prefixed skip/focus forms). */
export const TEST_ROOTS = new Set(['it', 'test', 'specify', 'bench']);
export const SUITE_ROOTS = new Set(['describe', 'context', 'suite']);
export const HOOKS = words('beforeEach afterEach beforeAll afterAll before after setup teardown suiteSetup suiteTeardown');
/** Member names on a test function that change whether it runs or how its failure counts. */
export const MARKER_PROPS: Record<string, string> = {
  skip: 'skip',
  only: 'only',
  todo: 'todo',
  failing: 'failing',
  fails: 'failing',
  skipIf: 'skipIf',
  runIf: 'runIf',
  fixme: 'skip',
  fail: 'failing',
};
/** Options-object keys (node:test, playwright) that skip, focus or excuse a test. */
export const MARKER_OPTIONS = new Set(['skip', 'todo', 'only', 'fails', 'failing', 'fixme']);
/** Modules whose exports are assertion functions. */
export const ASSERT_MODULES =
  /^(?:node:)?assert(?:\/strict)?$|^chai$|^uvu\/assert$|^power-assert$|^should$|^expect$|^@jest\/globals$|^vitest$|^bun:test$|^@playwright\/test$|^tap$|^ava$/;
/** Methods of a test-context object (node:test `t`, tap, ava) that assert. */
export const CTX_ASSERTS = words(
  'equal equals is not ok notOk true false deepEqual notDeepEqual same notSame strictSame strictEqual notStrictEqual deepStrictEqual match notMatch like unlike throws throwsAsync rejects notThrows doesNotThrow error ifError fail truthy falsy snapshot assert plan regex notRegex has hasStrict expect resolves',
);
export const CTX_SKIPS = new Set(['skip', 'todo', 'skipTest']);
export const FUNCTIONS = words(
  'arrow_function function_expression function function_declaration generator_function generator_function_declaration method_definition',
);
const LOOPS = new Set(['for_statement', 'for_in_statement', 'for_of_statement', 'while_statement', 'do_statement']);
export const MOCK_CALLS: Record<string, Set<string>> = {
  jest: new Set(['mock', 'doMock', 'unstable_mockModule', 'setMock', 'createMockFromModule', 'enableAutomock']),
  vi: new Set(['mock', 'doMock']),
  td: new Set(['replace', 'replaceEsm']),
  mock: new Set(['module']),
};
export const SPY_CALLS: Record<string, Set<string>> = {
  jest: new Set(['spyOn', 'replaceProperty']),
  vi: new Set(['spyOn']),
  mock: new Set(['method', 'getter', 'setter', 'property']),
  sinon: new Set(['stub', 'replace', 'replaceGetter', 'spy', 'fake']),
  td: new Set(['replace']),
};

export type Op = { kind: 'prop'; name: string; node: Node } | { kind: 'call'; args: Node; node: Node };

/** Flattens `a.b(c).d` into its base node and the member/call steps after it. */
export function flatten(n: Node): { base: Node; ops: Op[] } {
  const ops: Op[] = [];
  let cur: Node = n;
  for (;;) {
    if (cur.type === 'member_expression') {
      const prop = cur.childForFieldName('property');
      ops.unshift({ kind: 'prop', name: prop?.text ?? '', node: cur });
      cur = cur.childForFieldName('object') ?? cur;
      if (cur === null) break;
    } else if (cur.type === 'subscript_expression') {
      const idx = cur.childForFieldName('index');
      ops.unshift({ kind: 'prop', name: idx ? idx.text.replace(/^['"`]|['"`]$/g, '') : '', node: cur });
      cur = cur.childForFieldName('object') ?? cur;
    } else if (cur.type === 'call_expression') {
      const args = cur.childForFieldName('arguments');
      if (args) ops.unshift({ kind: 'call', args, node: cur });
      cur = cur.childForFieldName('function') ?? cur;
    } else if (
      ['parenthesized_expression', 'non_null_expression', 'await_expression', 'as_expression', 'satisfies_expression'].includes(cur.type) &&
      kids(cur)[0]
    ) {
      cur = kids(cur)[0] as Node;
    } else break;
  }
  return { base: cur, ops };
}

export const isHead = (n: Node): boolean => {
  const p = n.parent;
  if (!p) return true;
  if (p.type === 'member_expression' && p.childForFieldName('object')?.id === n.id) return false;
  if (p.type === 'subscript_expression' && p.childForFieldName('object')?.id === n.id) return false;
  if (p.type === 'call_expression' && p.childForFieldName('function')?.id === n.id) return false;
  if (p.type === 'non_null_expression' || p.type === 'parenthesized_expression') return isHead(p);
  return true;
};

export const argList = (args: Node | undefined): Node[] => (args ? (args.type === 'arguments' ? kids(args) : [args]) : []);
export const strValue = (n: Node | undefined): string | undefined => {
  if (!n) return undefined;
  if (n.type === 'string') return n.text.slice(1, -1);
  if (n.type === 'template_string') return n.text.slice(1, -1);
  return undefined;
};

const JS_GUARDS: GuardRules = {
  guardOf(p, child) {
    const t = p.type;
    if (t === 'try_statement' && p.childForFieldName('body')?.id === child.id) return 'try';
    if (t === 'catch_clause') return 'catch';
    if ((t === 'if_statement' || t === 'ternary_expression') && p.childForFieldName('condition')?.id !== child.id) return 'conditional';
    if (
      t === 'binary_expression' &&
      ['&&', '||', '??'].includes(p.childForFieldName('operator')?.text ?? '') &&
      p.childForFieldName('right')?.id === child.id
    )
      return 'conditional';
    if (t === 'switch_case' || t === 'switch_default') return 'conditional';
    if (LOOPS.has(t) && p.childForFieldName('body')?.id === child.id) return 'loop';
    if (FUNCTIONS.has(t)) return 'callback';
    if (t === 'optional_chain') return 'conditional';
    return undefined;
  },
  isBlock: (t) => t === 'statement_block' || t === 'program' || t === 'switch_case',
  exits,
};

/** Guards between an assertion and its test function. */
export const guardsOf = (n: Node, testFn: Node): Partial<Record<Guard, Span>> => guardsBetween(n, testFn, JS_GUARDS);

/** Whether a statement returns or throws (outside nested functions): what follows it may never run. */
function exits(s: Node): boolean {
  if (s.type === 'return_statement' || s.type === 'throw_statement') return true;
  if (FUNCTIONS.has(s.type) || s.type === 'class_declaration') return false;
  for (const c of s.namedChildren) if (c && exits(c)) return true;
  return false;
}
