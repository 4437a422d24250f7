import { posix } from 'node:path';
import type { Assertion, FileModel, Guard, Marker, Span, TestCase, TopLevel } from './model.js';
import { kids, linesOf, norm, type Node } from './parse.js';

/** Functions that declare a test or a suite (and their x/f-prefixed skip/focus forms). */
const TEST_ROOTS = new Set(['it', 'test', 'specify', 'bench']);
const SUITE_ROOTS = new Set(['describe', 'context', 'suite']);
const HOOKS = new Set(['beforeEach', 'afterEach', 'beforeAll', 'afterAll', 'before', 'after', 'setup', 'teardown', 'suiteSetup', 'suiteTeardown']);
/** Member names on a test function that change whether it runs or how its failure counts. */
const MARKER_PROPS: Record<string, string> = { skip: 'skip', only: 'only', todo: 'todo', failing: 'failing', fails: 'failing', skipIf: 'skipIf', runIf: 'runIf', fixme: 'skip', fail: 'failing' };
/** Options-object keys (node:test, playwright) that skip, focus or excuse a test. */
const MARKER_OPTIONS = new Set(['skip', 'todo', 'only', 'fails', 'failing', 'fixme']);
/** Modules whose exports are assertion functions. */
const ASSERT_MODULES = /^(?:node:)?assert(?:\/strict)?$|^chai$|^uvu\/assert$|^power-assert$|^should$|^expect$|^@jest\/globals$|^vitest$|^bun:test$|^@playwright\/test$|^tap$|^ava$/;
/** Methods of a test-context object (node:test `t`, tap, ava) that assert. */
const CTX_ASSERTS = new Set(['equal', 'equals', 'is', 'not', 'ok', 'notOk', 'true', 'false', 'deepEqual', 'notDeepEqual', 'same', 'notSame', 'strictSame', 'strictEqual', 'notStrictEqual', 'deepStrictEqual', 'match', 'notMatch', 'like', 'unlike', 'throws', 'throwsAsync', 'rejects', 'notThrows', 'doesNotThrow', 'error', 'ifError', 'fail', 'truthy', 'falsy', 'snapshot', 'assert', 'plan', 'regex', 'notRegex', 'has', 'hasStrict', 'expect', 'resolves']);
const CTX_SKIPS = new Set(['skip', 'todo', 'skipTest']);
const FUNCTIONS = new Set(['arrow_function', 'function_expression', 'function', 'function_declaration', 'generator_function', 'generator_function_declaration', 'method_definition']);
const LOOPS = new Set(['for_statement', 'for_in_statement', 'for_of_statement', 'while_statement', 'do_statement']);
const MOCK_CALLS: Record<string, Set<string>> = {
  jest: new Set(['mock', 'doMock', 'unstable_mockModule', 'setMock', 'createMockFromModule', 'enableAutomock']),
  vi: new Set(['mock', 'doMock']),
  td: new Set(['replace', 'replaceEsm']),
  mock: new Set(['module']),
};
const SPY_CALLS: Record<string, Set<string>> = {
  jest: new Set(['spyOn', 'replaceProperty']),
  vi: new Set(['spyOn']),
  mock: new Set(['method', 'getter', 'setter', 'property']),
  sinon: new Set(['stub', 'replace', 'replaceGetter', 'spy', 'fake']),
  td: new Set(['replace']),
};

type Op = { kind: 'prop'; name: string; node: Node } | { kind: 'call'; args: Node; node: Node };

/** Flattens `a.b(c).d` into its base node and the member/call steps after it. */
function flatten(n: Node): { base: Node; ops: Op[] } {
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
    } else if (['parenthesized_expression', 'non_null_expression', 'await_expression', 'as_expression', 'satisfies_expression'].includes(cur.type) && kids(cur)[0]) {
      cur = kids(cur)[0] as Node;
    } else break;
  }
  return { base: cur, ops };
}

const isHead = (n: Node): boolean => {
  const p = n.parent;
  if (!p) return true;
  if (p.type === 'member_expression' && p.childForFieldName('object')?.id === n.id) return false;
  if (p.type === 'subscript_expression' && p.childForFieldName('object')?.id === n.id) return false;
  if (p.type === 'call_expression' && p.childForFieldName('function')?.id === n.id) return false;
  if (p.type === 'non_null_expression' || p.type === 'parenthesized_expression') return isHead(p);
  return true;
};

const argList = (args: Node | undefined): Node[] => (args ? (args.type === 'arguments' ? kids(args) : [args]) : []);
const span = (n: Node): Span => ({ ...linesOf(n), text: n.text });
const guarded = (g: Partial<Record<Guard, Span>>): { guards: Guard[]; guardSpans: Partial<Record<Guard, Span>> } => ({ guards: Object.keys(g) as Guard[], guardSpans: g });
const strValue = (n: Node | undefined): string | undefined => {
  if (!n) return undefined;
  if (n.type === 'string') return n.text.slice(1, -1);
  if (n.type === 'template_string') return n.text.slice(1, -1);
  return undefined;
};

interface Scope {
  suite: string[];
  inherited: Marker[];
  /** Parameters of enclosing test callbacks (node:test `t`, ava/tap `t`): their methods assert or skip. */
  ctx: Set<string>;
}

/** Builds the test model of one JS/TS file (tree-sitter tree). `file` is its repository path. */
export function jsModel(root: Node, file: string, hasError: boolean): FileModel {
  const aliases = new Map<string, { root: string; props: string[] }>();
  const objects = new Map<string, Node>();
  const assertNames = new Set(['expect', 'assert', 'expectTypeOf', 'assertType']);
  const imports: string[] = [];
  const importedFrom = new Map<string, string>();
  const model: FileModel = { tests: [], mocks: [], topLevel: [], imports, fileMarkers: [], parseError: hasError };

  // Pass 1: imports, aliases of test functions (`const skip = test.skip`, `const { test } = require('node:test')`), const objects.
  const all = root.descendantsOfType(['import_statement', 'variable_declarator', 'call_expression']);
  for (const n of all) {
    if (!n) continue;
    if (n.type === 'import_statement') {
      const src = strValue(n.childForFieldName('source') ?? undefined) ?? '';
      imports.push(src);
      for (const id of n.descendantsOfType(['identifier'])) {
        if (!id || id.parent?.type === 'import_specifier' && id.parent.childForFieldName('alias') && id.parent.childForFieldName('name')?.id === id.id) continue;
        importedFrom.set(id.text, src);
        if (ASSERT_MODULES.test(src)) assertNames.add(id.text);
      }
      for (const sp of n.descendantsOfType('import_specifier')) {
        const name = sp?.childForFieldName('name')?.text;
        const alias = sp?.childForFieldName('alias')?.text;
        if (name && alias && (TEST_ROOTS.has(name) || SUITE_ROOTS.has(name))) aliases.set(alias, { root: name, props: [] });
      }
    } else if (n.type === 'call_expression') {
      const fn = n.childForFieldName('function');
      const a0 = argList(n.childForFieldName('arguments') ?? undefined)[0];
      if ((fn?.text === 'require' || fn?.type === 'import') && a0) {
        const src = strValue(a0);
        if (src !== undefined) {
          imports.push(src);
          const decl = n.parent?.type === 'variable_declarator' ? n.parent.childForFieldName('name') : undefined;
          for (const id of decl ? decl.descendantsOfType(['identifier', 'shorthand_property_identifier_pattern']) : []) {
            if (!id) continue;
            importedFrom.set(id.text, src);
            if (ASSERT_MODULES.test(src)) assertNames.add(id.text);
          }
        }
      }
    } else {
      const name = n.childForFieldName('name');
      const value = n.childForFieldName('value');
      if (!name || !value) continue;
      if (name.type === 'identifier' && value.type === 'object') objects.set(name.text, value);
      const f = flatten(value);
      const baseName = f.base.type === 'identifier' ? f.base.text : undefined;
      const known = baseName && (TEST_ROOTS.has(baseName) || SUITE_ROOTS.has(baseName) || aliases.has(baseName) || /^[xf](?:it|test|describe)$/.test(baseName));
      if (!known || f.ops.some((o) => o.kind === 'call')) continue;
      const props = f.ops.map((o) => (o.kind === 'prop' ? o.name : ''));
      const prior = aliases.get(baseName) ?? { root: baseName, props: [] };
      if (name.type === 'identifier') aliases.set(name.text, { root: prior.root, props: [...prior.props, ...props] });
      else if (name.type === 'object_pattern') {
        for (const p of kids(name)) {
          const key = p.type === 'pair_pattern' ? p.childForFieldName('key')?.text : p.text;
          const local = p.type === 'pair_pattern' ? p.childForFieldName('value')?.text : p.text;
          if (key && local) aliases.set(local, { root: prior.root, props: [...prior.props, ...props, key] });
        }
      }
    }
  }

  const resolveRepo = (spec: string): string | undefined => (spec.startsWith('.') ? posix.normalize(posix.join(posix.dirname(file), spec)) : spec.startsWith('/') ? spec.slice(1) : undefined);

  /** A test/suite call's kind, full-chain markers and arguments; undefined when `call` declares none. */
  const testCall = (call: Node, scope: Scope): { kind: 'test' | 'suite' | 'hook'; markers: string[]; args: Node[] } | undefined => {
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
    }
    if (!rootName) return undefined;
    const alias = aliases.get(rootName);
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
    if (HOOKS.has(r) && props.every((p) => p === '()' || p === 'each' || p === 'all')) return { kind: 'hook', markers: [], args: argList(call.childForFieldName('arguments') ?? undefined) };
    if (TEST_ROOTS.has(r) && HOOKS.has(props[0] ?? '')) return { kind: 'hook', markers: [], args: argList(call.childForFieldName('arguments') ?? undefined) };
    if (!TEST_ROOTS.has(r) && !SUITE_ROOTS.has(r)) return undefined;
    for (const p of props) if (MARKER_PROPS[p]) markers.push(MARKER_PROPS[p] as string);
    const args = argList(call.childForFieldName('arguments') ?? undefined);
    const hasFn = args.some((a) => FUNCTIONS.has(a.type));
    if (!hasFn && !markers.includes('todo') && args.length < 1) return undefined;
    if (!hasFn && !markers.length && !(args[0] && (args[0].type === 'string' || args[0].type === 'template_string'))) return undefined;
    return { kind: SUITE_ROOTS.has(r) ? 'suite' : 'test', markers, args };
  };

  const optionMarkers = (args: Node[]): Marker[] => {
    const out: Marker[] = [];
    for (const a of args.slice(1)) {
      let obj: Node | undefined = a.type === 'object' ? a : undefined;
      if (!obj && a.type === 'identifier' && !FUNCTIONS.has(a.type)) {
        obj = objects.get(a.text);
        if (!obj && !importedFrom.has(a.text)) out.push({ kind: `options \`${a.text}\` (not resolvable)`, span: span(a) });
      }
      if (!obj) continue;
      for (const p of kids(obj)) {
        if (p.type === 'spread_element') out.push({ kind: 'options spread (not resolvable)', span: span(p) });
        const key = p.type === 'pair' ? p.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '') : p.type === 'shorthand_property_identifier' ? p.text : undefined;
        const val = p.type === 'pair' ? p.childForFieldName('value')?.text : 'true';
        if (key && MARKER_OPTIONS.has(key) && val !== 'false' && val !== 'undefined') out.push({ kind: `${key} option`, span: span(p) });
      }
    }
    return out;
  };

  const nameOf = (a: Node | undefined): string => (a ? (strValue(a) ?? norm(a)) : '(unnamed)');

  /** Guards between an assertion and its test function. */
  const guardsOf = (n: Node, testFn: Node): Partial<Record<Guard, Span>> => {
    const out = new Map<Guard, Span>();
    const at = (g: Guard, x: Node): void => {
      if (!out.has(g)) out.set(g, span(x));
    };
    let child = n;
    let p = n.parent;
    while (p && p.id !== testFn.id) {
      const t = p.type;
      if (t === 'try_statement' && p.childForFieldName('body')?.id === child.id) at('try', p);
      else if (t === 'catch_clause') at('catch', p);
      else if ((t === 'if_statement' || t === 'ternary_expression') && p.childForFieldName('condition')?.id !== child.id) at('conditional', p);
      else if (t === 'binary_expression' && ['&&', '||', '??'].includes(p.childForFieldName('operator')?.text ?? '') && p.childForFieldName('right')?.id === child.id) at('conditional', p);
      else if (t === 'switch_case' || t === 'switch_default') at('conditional', p);
      else if (LOOPS.has(t) && p.childForFieldName('body')?.id === child.id) at('loop', p);
      else if (FUNCTIONS.has(t)) at('callback', p);
      else if (t === 'optional_chain') at('conditional', p);
      if (t === 'statement_block' || t === 'program' || t === 'switch_case') {
        for (const s of p.namedChildren) {
          if (!s || s.id === child.id) break;
          if (exits(s)) at('after-return', s);
        }
      }
      child = p;
      p = p.parent;
    }
    return Object.fromEntries(out) as Partial<Record<Guard, Span>>;
  };

  const isAssertion = (n: Node, scope: Scope): { base: Node; ops: Op[] } | undefined => {
    if (n.type !== 'call_expression' && n.type !== 'member_expression') return undefined;
    if (!isHead(n)) return undefined;
    const f = flatten(n);
    const b = f.base.type === 'identifier' ? f.base.text : f.base.type === 'this' ? 'this' : '';
    const first = f.ops[0];
    if (assertNames.has(b)) return f;
    if (b === 'sinon' && first?.kind === 'prop' && first.name === 'assert') return f;
    if (scope.ctx.has(b) && first?.kind === 'prop' && (CTX_ASSERTS.has(first.name) || first.name === 'assert')) return f;
    if (f.ops.some((o) => o.kind === 'prop' && o.name === 'should')) return f;
    // mock assertions: `expect(fn).toHaveBeenCalled()` is covered by expect; `sinon.assert.calledOnce(...)` above.
    return undefined;
  };

  const describeAssertion = (n: Node, f: { base: Node; ops: Op[] }, testFn: Node): Assertion => {
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
      const rootName = ['expect', 'assert', 'sinon', 'this'].includes(b) || importedFrom.has(b) ? b : 'ctx';
      matcher = [rootName, ...props];
      if (props.length === 1 && ['assertions', 'hasAssertions', 'plan'].includes(props[0] ?? '')) {
        subject = `(${props[0] ?? ''})`;
        args = all;
      }
    }
    const stmt = n.parent?.type === 'await_expression' ? n.parent : n;
    return { key: norm(n), subject, matcher: matcher.join('.'), args, ...guarded(guardsOf(stmt, testFn)), span: span(n) };
  };

  /** Collects a test function's assertions, runtime skips and subtests. */
  const scanBody = (fnNode: Node, tc: TestCase, scope: Scope): void => {
    const walk = (n: Node): void => {
      if (n.type === 'call_expression') {
        const tcall = testCall(n, scope);
        if (tcall && tcall.kind !== 'hook') {
          declare(n, tcall, scope.suite.length ? { ...scope, suite: [...tc.name.split(' > ')] } : { ...scope, suite: [tc.name] });
          return;
        }
        const { base, ops } = flatten(n.childForFieldName('function') ?? n);
        const bName = base.type === 'identifier' ? base.text : base.type === 'this' ? 'this' : '';
        const p0 = ops[0];
        if (p0?.kind === 'prop' && CTX_SKIPS.has(p0.name) && (scope.ctx.has(bName) || bName === 'this' || ((TEST_ROOTS.has(bName) || aliases.has(bName)) && ops.length === 1))) {
          tc.markers.push({ kind: `runtime ${p0.name}`, span: span(n) });
        }
        if (bName === 'pending' && ops.length === 0) tc.markers.push({ kind: 'runtime pending', span: span(n) });
        collectMock(n);
      }
      const a = isAssertion(n, scope);
      if (a) {
        tc.assertions.push(describeAssertion(n, a, fnNode));
        return;
      }
      for (const c of n.namedChildren) if (c) walk(c);
    };
    const body = fnNode.childForFieldName('body');
    if (body) walk(body);
  };

  const collectMock = (call: Node): void => {
    const { base, ops } = flatten(call.childForFieldName('function') ?? call);
    const b = base.type === 'identifier' ? base.text : '';
    const p0 = ops[0];
    if (ops.length !== 1 || p0?.kind !== 'prop') return;
    const args = argList(call.childForFieldName('arguments') ?? undefined);
    const how = `${b}.${p0.name}`;
    if (MOCK_CALLS[b]?.has(p0.name) || (b !== 'mock' && p0.name === 'module' && args[0] && strValue(args[0]) !== undefined && ops.length === 1 && b.length <= 3)) {
      const target = strValue(args[0]);
      if (target === undefined) return;
      const repoPath = resolveRepo(target);
      model.mocks.push({ target, ...(repoPath ? { repoPath } : {}), how, span: span(call) });
    } else if (SPY_CALLS[b]?.has(p0.name) && args[0]?.type === 'identifier') {
      const src = importedFrom.get(args[0].text);
      if (src === undefined) return;
      const repoPath = resolveRepo(src);
      const m = strValue(args[1]);
      model.mocks.push({ target: `${src}${m ? `#${m}` : ''}`, ...(repoPath ? { repoPath } : {}), how, span: span(call) });
    }
  };

  const declare = (call: Node, t: { kind: 'test' | 'suite' | 'hook'; markers: string[]; args: Node[] }, scope: Scope): void => {
    const own: Marker[] = t.markers.map((k) => ({ kind: k, span: span(call) }));
    own.push(...optionMarkers(t.args));
    const name = [...scope.suite, nameOf(t.args[0])].join(' > ');
    const fnNode = [...t.args].reverse().find((a) => FUNCTIONS.has(a.type));
    const ctx = new Set(scope.ctx);
    const param = fnNode?.childForFieldName('parameters') ?? fnNode?.childForFieldName('parameter');
    const p0 = param ? (param.type === 'identifier' ? param : kids(param)[0]) : undefined;
    const pid = p0?.type === 'identifier' ? p0 : p0 ? (p0.childForFieldName('pattern') ?? p0.descendantsOfType('identifier')[0] ?? undefined) : undefined;
    if (pid && pid.type === 'identifier') ctx.add(pid.text);
    if (t.kind === 'suite') {
      const inner: Scope = { suite: [...scope.suite, nameOf(t.args[0])], inherited: [...scope.inherited, ...own], ctx: scope.ctx };
      if (own.length && !fnNode) model.fileMarkers.push(...own);
      const body = fnNode?.childForFieldName('body');
      if (body) walkScope(body, inner);
      else if (own.some((m) => m.kind === 'only')) model.fileMarkers.push(...own);
      if (own.some((m) => m.kind === 'only')) model.fileMarkers.push(...own.filter((m) => m.kind === 'only'));
      return;
    }
    const tc: TestCase = { name, markers: [...scope.inherited, ...own], assertions: [], span: span(call), body: norm(call) };
    model.tests.push(tc);
    if (fnNode) scanBody(fnNode, tc, { ...scope, ctx });
  };

  /** Statements at file or suite level: tests and suites are declared, everything else is recorded. */
  const walkScope = (block: Node, scope: Scope): void => {
    const statements = block.type === 'statement_block' || block.type === 'program' ? kids(block) : [block];
    for (const s of statements) {
      const expr = s.type === 'expression_statement' ? kids(s)[0] : block.type === 'statement_block' || block.type === 'program' ? undefined : s;
      const call = expr ? (expr.type === 'await_expression' ? kids(expr)[0] : expr) : undefined;
      if (call?.type === 'call_expression') {
        const t = testCall(call, scope);
        if (t && t.kind !== 'hook') {
          declare(call, t, scope);
          continue;
        }
        const before = model.mocks.length;
        collectMock(call);
        if (model.mocks.length > before) continue;
        if (t?.kind === 'hook') {
          model.topLevel.push({ key: `${scope.suite.join(' > ')}|${norm(s)}`, kind: 'hook', span: span(s) });
          continue;
        }
      }
      model.topLevel.push(topLevelOf(s, scope));
    }
  };

  const topLevelOf = (s: Node, scope: Scope): TopLevel => {
    const key = `${scope.suite.join(' > ')}|${norm(s)}`;
    if (s.type === 'import_statement') {
      const src = strValue(s.childForFieldName('source') ?? undefined) ?? '';
      const bindings: Record<string, string> = {};
      for (const id of s.descendantsOfType('identifier')) if (id) bindings[id.text] = src;
      return { key, kind: 'import', bindings, span: span(s) };
    }
    const declTypes = ['lexical_declaration', 'variable_declaration', 'function_declaration', 'generator_function_declaration', 'class_declaration', 'type_alias_declaration', 'interface_declaration', 'enum_declaration', 'empty_statement'];
    const inner = s.type === 'export_statement' ? (s.childForFieldName('declaration') ?? kids(s)[0]) : s;
    if (inner && declTypes.includes(inner.type)) {
      const req = inner.descendantsOfType('call_expression').find((c) => c?.childForFieldName('function')?.text === 'require');
      if (req) {
        const src = strValue(argList(req.childForFieldName('arguments') ?? undefined)[0]) ?? '';
        const bindings: Record<string, string> = {};
        for (const id of inner.childForFieldName('name')?.descendantsOfType(['identifier', 'shorthand_property_identifier_pattern']) ?? []) if (id) bindings[id.text] = src;
        for (const d of inner.descendantsOfType('variable_declarator')) for (const id of d?.childForFieldName('name')?.descendantsOfType(['identifier', 'shorthand_property_identifier_pattern']) ?? []) if (id) bindings[id.text] = src;
        return { key, kind: 'import', bindings, span: span(s) };
      }
      return { key, kind: 'declaration', span: span(s) };
    }
    return { key, kind: 'code', span: span(s) };
  };

  walkScope(root, { suite: [], inherited: [], ctx: new Set() });
  return model;
}

/** Whether a statement returns or throws (outside nested functions): what follows it may never run. */
function exits(s: Node): boolean {
  if (s.type === 'return_statement' || s.type === 'throw_statement') return true;
  if (FUNCTIONS.has(s.type) || s.type === 'class_declaration') return false;
  for (const c of s.namedChildren) if (c && exits(c)) return true;
  return false;
}
