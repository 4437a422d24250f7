import type { Assertion, Marker } from './model.js';
import { kids, norm, type Node } from './parse.js';
import type { JsSymbols } from './js-symbols.js';
import {
  CTX_ASSERTS,
  FUNCTIONS,
  HOOKS,
  MARKER_OPTIONS,
  MARKER_PROPS,
  SUITE_ROOTS,
  TEST_ROOTS,
  argList,
  flatten,
  guarded,
  guardsOf,
  isHead,
  span,
  type Op,
} from './js-syntax.js';

/** Where a call sits: enclosing suite names, markers inherited from them, test-context parameter names. */
export interface Scope {
  suite: string[];
  inherited: Marker[];
  /** Parameters of enclosing test callbacks (node:test `t`, ava/tap `t`): their methods assert or skip. */
  ctx: Set<string>;
}

/** A call that declares a test, a suite or a hook: its kind, full-chain markers and arguments. */
export interface TestCall {
  kind: 'test' | 'suite' | 'hook';
  markers: string[];
  args: Node[];
}

/** A test/suite call's kind, full-chain markers and arguments; undefined when `call` declares none. */
export function testCall(sym: JsSymbols, call: Node, scope: Scope): TestCall | undefined {
  const fn = call.childForFieldName('function');
  if (!fn) return undefined;
  const { base, ops } = flatten(fn);
  let rootName = base.type === 'identifier' ? base.text : undefined;
  let props = ops.map((o) => (o.kind === 'prop' ? o.name : '()'));
  if (rootName && scope.ctx.has(rootName) && props[0] === 'test') {
    rootName = 'test';
    props = props.slice(1);
  } else if (base.type === 'identifier' && base.text === 'Deno' && props[0] === 'test') {
    rootName = 'test';
    props = props.slice(1);
  } else if (rootName && runnerExport(sym, rootName, props[0], call)) {
    // node-tap's `t.test(...)`, `tap.skip(...)`: declared through the runner module's export, whatever its local name.
    rootName = TEST_ROOTS.has(props[0] ?? '') || SUITE_ROOTS.has(props[0] ?? '') ? (props.shift() ?? 'test') : 'test';
  }
  if (!rootName) return undefined;
  const alias = sym.aliases.get(rootName);
  if (alias) {
    rootName = alias.root;
    props = [...alias.props, ...props];
  }
  const markers: string[] = [];
  let r = rootName;
  const prefixed = /^([xf])(it|test|specify|describe|context|suite)$/.exec(r);
  if (prefixed) {
    markers.push(prefixed[1] === 'x' ? 'skip' : 'only');
    r = prefixed[2] ?? r;
  }
  // playwright: test.describe(...), test.describe.skip(...)
  if (TEST_ROOTS.has(r) && props[0] === 'describe') {
    r = 'describe';
    props = props.slice(1);
  }
  if (HOOKS.has(r) && props.every((p) => p === '()' || p === 'each' || p === 'all'))
    return { kind: 'hook', markers: [], args: argList(call.childForFieldName('arguments') ?? undefined) };
  if (TEST_ROOTS.has(r) && HOOKS.has(props[0] ?? ''))
    return { kind: 'hook', markers: [], args: argList(call.childForFieldName('arguments') ?? undefined) };
  if (!TEST_ROOTS.has(r) && !SUITE_ROOTS.has(r)) return undefined;
  for (const p of props) if (MARKER_PROPS[p]) markers.push(MARKER_PROPS[p] as string);
  const args = argList(call.childForFieldName('arguments') ?? undefined);
  const hasFn = args.some((a) => FUNCTIONS.has(a.type));
  if (!hasFn && !markers.includes('todo') && args.length < 1) return undefined;
  if (!hasFn && !markers.length && !(args[0] && (args[0].type === 'string' || args[0].type === 'template_string'))) return undefined;
  return { kind: SUITE_ROOTS.has(r) ? 'suite' : 'test', markers, args };
}

/**
 * `X.<member>(…, fn)` where X is bound to a package's export (`require('tap')`, `import * as tap from 'tap'`;
 * not a repository file, whose `.test` is the repository's own code) and the member declares a test or a
 * suite (`test`, `describe`, …) or marks one (`skip`, `todo`, `only`): the runner's API, by how the call
 * resolves, not by the name the file gives the module. A function argument is required, so an assertion
 * module's `assert.fail('…')` stays an assertion.
 */
function runnerExport(sym: JsSymbols, name: string, member: string | undefined, call: Node): boolean {
  const from = sym.importedFrom.get(name);
  if (from === undefined || from.startsWith('.') || from.startsWith('/') || member === undefined) return false;
  if (!TEST_ROOTS.has(member) && !SUITE_ROOTS.has(member) && !MARKER_PROPS[member]) return false;
  return argList(call.childForFieldName('arguments') ?? undefined).some((a) => FUNCTIONS.has(a.type));
}

/** Markers in a test's options object (inline, or a const object by name; unresolvable ones say so). */
export function optionMarkers(sym: JsSymbols, args: Node[]): Marker[] {
  const out: Marker[] = [];
  for (const a of args.slice(1)) {
    let obj: Node | undefined = a.type === 'object' ? a : undefined;
    if (!obj && a.type === 'identifier' && !FUNCTIONS.has(a.type)) {
      obj = sym.objects.get(a.text);
      if (!obj && !sym.importedFrom.has(a.text)) out.push({ kind: `options \`${a.text}\` (not resolvable)`, span: span(a) });
    }
    if (!obj) continue;
    for (const p of kids(obj)) {
      if (p.type === 'spread_element') out.push({ kind: 'options spread (not resolvable)', span: span(p) });
      const key =
        p.type === 'pair'
          ? p.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '')
          : p.type === 'shorthand_property_identifier'
            ? p.text
            : undefined;
      const val = p.type === 'pair' ? p.childForFieldName('value')?.text : 'true';
      if (key && MARKER_OPTIONS.has(key) && val !== 'false' && val !== 'undefined') out.push({ kind: `${key} option`, span: span(p) });
    }
  }
  return out;
}

/** The call chain of `n` when it is an assertion (expect, assert, a test context's assert methods, should). */
export function isAssertion(sym: JsSymbols, n: Node, scope: Scope): { base: Node; ops: Op[] } | undefined {
  if (n.type !== 'call_expression' && n.type !== 'member_expression') return undefined;
  if (!isHead(n)) return undefined;
  const f = flatten(n);
  const b = f.base.type === 'identifier' ? f.base.text : f.base.type === 'this' ? 'this' : '';
  const first = f.ops[0];
  if (sym.assertNames.has(b)) return f;
  if (b === 'sinon' && first?.kind === 'prop' && first.name === 'assert') return f;
  if (scope.ctx.has(b) && first?.kind === 'prop' && (CTX_ASSERTS.has(first.name) || first.name === 'assert')) return f;
  if (f.ops.some((o) => o.kind === 'prop' && o.name === 'should')) return f;
  // mock assertions: `expect(fn).toHaveBeenCalled()` is covered by expect; `sinon.assert.calledOnce(...)` above.
  return undefined;
}

/** An assertion as the comparison matches it: subject, matcher, expected args, guards. */
export function describeAssertion(sym: JsSymbols, n: Node, f: { base: Node; ops: Op[] }, testFn: Node): Assertion {
  const b = f.base.text;
  let subject = '';
  let matcher: string[] = [];
  let args: string[] = [];
  const first = f.ops[0];
  if (first?.kind === 'call' && (b === 'expect' || b === 'expectTypeOf')) {
    subject = argList(first.args).map(norm).join(', ');
    const rest = f.ops.slice(1);
    matcher = rest.filter((o) => o.kind === 'prop').map((o) => (o as { name: string }).name);
    const lastCall = [...rest].reverse().find((o) => o.kind === 'call');
    args = lastCall && lastCall.kind === 'call' ? argList(lastCall.args).map(norm) : [];
    matcher.unshift('expect');
  } else {
    const props: string[] = [];
    let call: Op | undefined;
    for (const o of f.ops) {
      if (o.kind === 'prop') props.push(o.name);
      else {
        call = o;
        break;
      }
    }
    const all = call && call.kind === 'call' ? argList(call.args).map(norm) : [];
    subject = all[0] ?? '';
    args = all.slice(1);
    const rootName = ['expect', 'assert', 'sinon', 'this'].includes(b) || sym.importedFrom.has(b) ? b : 'ctx';
    matcher = [rootName, ...props];
    if (props.length === 1 && ['assertions', 'hasAssertions', 'plan'].includes(props[0] ?? '')) {
      subject = `(${props[0] ?? ''})`;
      args = all;
    }
  }
  const stmt = n.parent?.type === 'await_expression' ? n.parent : n;
  return { key: norm(n), subject, matcher: matcher.join('.'), args, ...guarded(guardsOf(stmt, testFn)), span: span(n) };
}
