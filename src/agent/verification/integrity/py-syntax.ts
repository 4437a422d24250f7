import type { Assertion, Guard, Span } from './model.js';
import { kids, linesOf, norm, type Node } from './parse.js';

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

export const span = (n: Node): Span => ({ ...linesOf(n), text: n.text });
const guarded = (g: Partial<Record<Guard, Span>>): { guards: Guard[]; guardSpans: Partial<Record<Guard, Span>> } => ({
  guards: Object.keys(g) as Guard[],
  guardSpans: g,
});
export const str = (n: Node | undefined | null): string | undefined => {
  if (!n || n.type !== 'string') return undefined;
  const m = /^[rbuf]*('''|"""|'|")([\s\S]*)\1$/i.exec(n.text);
  return m ? m[2] : undefined;
};
export const args = (call: Node): Node[] => kids(call.childForFieldName('arguments') ?? call).filter((a) => a.type !== 'keyword_argument');

/** Guards between an assertion and its test function. */
function guardsOf(n: Node, fn: Node): Partial<Record<Guard, Span>> {
  const out = new Map<Guard, Span>();
  const at = (g: Guard, x: Node): void => {
    if (!out.has(g)) out.set(g, span(x));
  };
  let child = n;
  let p = n.parent;
  while (p && p.id !== fn.id) {
    const t = p.type;
    if (t === 'try_statement' && p.childForFieldName('body')?.id === child.id) at('try', p);
    else if (t === 'except_clause' || t === 'except_group_clause') at('catch', p);
    else if (t === 'if_statement' && p.childForFieldName('condition')?.id !== child.id) at('conditional', p);
    else if (t === 'elif_clause' || t === 'else_clause') at('conditional', p);
    else if (t === 'conditional_expression' && kids(p)[1]?.id !== child.id) at('conditional', p);
    else if (t === 'boolean_operator' && p.childForFieldName('right')?.id === child.id) at('conditional', p);
    else if (LOOPS.has(t)) at('loop', p);
    else if (FUNCS.has(t)) at('callback', p);
    else if (t === 'with_statement' && /\bsuppress\b/.test(norm(p.childForFieldName('with_clause') ?? kids(p)[0]))) at('try', p);
    if (t === 'block' || t === 'module') {
      for (const s of p.namedChildren) {
        if (!s || s.id === child.id) break;
        if (exits(s)) at('after-return', s);
      }
    }
    child = p;
    p = p.parent;
  }
  return Object.fromEntries(out) as Partial<Record<Guard, Span>>;
}

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
