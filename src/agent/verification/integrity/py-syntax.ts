import type { Assertion, Guard, Span } from './model.js';
import { guarded, guardsBetween, span, type GuardRules } from './guards.js';
import { kids, norm, type Node } from './parse.js';

export { span } from './guards.js';

/** Syntax helpers for the Python test model (tree-sitter nodes): spans, strings, guards, assertions. */

const FUNCS = new Set(['function_definition', 'lambda']);
const LOOPS = new Set([
  'for_statement',
  'while_statement',
  'list_comprehension',
  'generator_expression',
  'set_comprehension',
  'dictionary_comprehension',
]);

export const str = (n: Node | undefined | null): string | undefined => {
  if (!n || n.type !== 'string') return undefined;
  const m = /^[rbuf]*('''|"""|'|")([\s\S]*)\1$/i.exec(n.text);
  return m ? m[2] : undefined;
};
export const args = (call: Node): Node[] => kids(call.childForFieldName('arguments') ?? call).filter((a) => a.type !== 'keyword_argument');

const PY_GUARDS: GuardRules = {
  guardOf(p, child) {
    const t = p.type;
    if (t === 'try_statement' && p.childForFieldName('body')?.id === child.id) return 'try';
    if (t === 'except_clause' || t === 'except_group_clause') return 'catch';
    if (t === 'if_statement' && p.childForFieldName('condition')?.id !== child.id) return 'conditional';
    if (t === 'elif_clause' || t === 'else_clause') return 'conditional';
    if (t === 'conditional_expression' && kids(p)[1]?.id !== child.id) return 'conditional';
    if (t === 'boolean_operator' && p.childForFieldName('right')?.id === child.id) return 'conditional';
    if (LOOPS.has(t)) return 'loop';
    if (FUNCS.has(t)) return 'callback';
    if (t === 'with_statement' && /\bsuppress\b/.test(norm(p.childForFieldName('with_clause') ?? kids(p)[0]))) return 'try';
    return undefined;
  },
  isBlock: (t) => t === 'block' || t === 'module',
  exits,
};

/** Guards between an assertion and its test function. */
const guardsOf = (n: Node, fn: Node): Partial<Record<Guard, Span>> => guardsBetween(n, fn, PY_GUARDS);

/** `n` as an assertion (assert statement, self.assert*, pytest.raises, mock asserts, assert* functions), else undefined. */
export function assertionOf(n: Node, fn: Node): Assertion | undefined {
  if (n.type === 'assert_statement') {
    const e = kids(n)[0];
    let subject = norm(e);
    let matcher = 'assert';
    let rest: string[] = [];
    if (e?.type === 'comparison_operator') {
      const parts = kids(e);
      subject = norm(parts[0]);
      matcher = `assert ${e.children
        .filter((c) => c && !c.isNamed)
        .map((c) => c?.text)
        .join(' ')}`;
      rest = parts.slice(1).map(norm);
    } else if (e?.type === 'not_operator') {
      matcher = 'assert not';
      subject = norm(e.childForFieldName('argument'));
    }
    return { key: norm(n), subject, matcher, args: rest, ...guarded(guardsOf(n, fn)), span: span(n) };
  }
  if (n.type !== 'call') return undefined;
  const f = n.childForFieldName('function');
  if (!f) return undefined;
  const name = f.type === 'attribute' ? (f.childForFieldName('attribute')?.text ?? '') : f.text;
  const obj = f.type === 'attribute' ? norm(f.childForFieldName('object')) : '';
  const a = args(n).map(norm);
  const isPytest = /^pytest$/.test(obj) && ['raises', 'warns', 'deprecated_call', 'fail'].includes(name);
  const isSelf =
    (obj === 'self' || obj === 'cls') && (/^assert/.test(name) || name === 'fail' || name === 'fail_' || /^failUnless|^failIf/.test(name));
  const isMockAssert = /^assert_(?:called|not_called|any_call|has_calls|awaited|not_awaited)/.test(name);
  const isFnAssert = /^assert/i.test(name) && !isSelf;
  if (!isPytest && !isSelf && !isMockAssert && !isFnAssert) return undefined;
  const subject = isMockAssert ? obj : (a[0] ?? '');
  const matcher = isMockAssert ? `mock.${name}` : obj && !isSelf ? `${obj}.${name}` : name;
  return { key: norm(n), subject, matcher, args: isMockAssert ? a : a.slice(1), ...guarded(guardsOf(n, fn)), span: span(n) };
}

/** Whether a statement returns or raises (outside nested definitions): what follows it may never run. */
function exits(s: Node): boolean {
  if (s.type === 'return_statement' || s.type === 'raise_statement') return true;
  if (s.type === 'function_definition' || s.type === 'class_definition' || s.type === 'lambda' || s.type === 'decorated_definition')
    return false;
  for (const c of s.namedChildren) if (c && exits(c)) return true;
  return false;
}
