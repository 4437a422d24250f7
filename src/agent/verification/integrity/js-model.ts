import { posix } from 'node:path';
import type { FileModel, Marker, TestCase, TopLevel } from './model.js';
import { kids, norm, type Node } from './parse.js';
import { describeAssertion, isAssertion, optionMarkers, testCall, type Scope, type TestCall } from './js-calls.js';
import { jsSymbols, type JsSymbols } from './js-symbols.js';
import { CTX_SKIPS, FUNCTIONS, MOCK_CALLS, SPY_CALLS, TEST_ROOTS, argList, flatten, span, strValue } from './js-syntax.js';

/** The file being modelled: what it binds (pass 1) and the model being built (pass 2). */
interface JsFile {
  sym: JsSymbols;
  model: FileModel;
}

/** Builds the test model of one JS/TS file (tree-sitter tree). `file` is its repository path. */
export function jsModel(root: Node, file: string, hasError: boolean): FileModel {
  const sym = jsSymbols(root, file);
  const model: FileModel = { tests: [], mocks: [], topLevel: [], imports: sym.imports, fileMarkers: [], parseError: hasError };
  walkScope({ sym, model }, root, { suite: [], inherited: [], ctx: new Set() });
  return model;
}

const nameOf = (a: Node | undefined): string => (a ? (strValue(a) ?? norm(a)) : '(unnamed)');

/** Statements at file or suite level: tests and suites are declared, everything else is recorded. */
function walkScope(js: JsFile, block: Node, scope: Scope): void {
  const { model } = js;
  const statements = block.type === 'statement_block' || block.type === 'program' ? kids(block) : [block];
  for (const s of statements) {
    const expr =
      s.type === 'expression_statement' ? kids(s)[0] : block.type === 'statement_block' || block.type === 'program' ? undefined : s;
    const call = expr ? (expr.type === 'await_expression' ? kids(expr)[0] : expr) : undefined;
    if (call?.type === 'call_expression') {
      const t = testCall(js.sym, call, scope);
      if (t && t.kind !== 'hook') {
        declare(js, call, t, scope);
        continue;
      }
      const before = model.mocks.length;
      collectMock(js, call);
      if (model.mocks.length > before) continue;
      if (t?.kind === 'hook') {
        model.topLevel.push({ key: `${scope.suite.join(' > ')}|${norm(s)}`, kind: 'hook', span: span(s) });
        continue;
      }
    }
    model.topLevel.push(topLevelOf(s, scope));
  }
}

/** The first parameter of a test callback (`t`): its methods assert or skip inside the test. */
function ctxParam(fnNode: Node | undefined): Node | undefined {
  const param = fnNode?.childForFieldName('parameters') ?? fnNode?.childForFieldName('parameter');
  const p0 = param ? (param.type === 'identifier' ? param : kids(param)[0]) : undefined;
  const pid =
    p0?.type === 'identifier'
      ? p0
      : p0
        ? (p0.childForFieldName('pattern') ?? p0.descendantsOfType('identifier')[0] ?? undefined)
        : undefined;
  return pid && pid.type === 'identifier' ? pid : undefined;
}

/** A test or suite declaration: a suite's body is walked as a scope, a test becomes a TestCase with its body scanned. */
function declare(js: JsFile, call: Node, t: TestCall, scope: Scope): void {
  const { model } = js;
  const own: Marker[] = t.markers.map((k) => ({ kind: k, span: span(call) }));
  own.push(...optionMarkers(js.sym, t.args));
  const name = [...scope.suite, nameOf(t.args[0])].join(' > ');
  const fnNode = [...t.args].reverse().find((a) => FUNCTIONS.has(a.type));
  const ctx = new Set(scope.ctx);
  const pid = ctxParam(fnNode);
  if (pid) ctx.add(pid.text);
  if (t.kind === 'suite') {
    const inner: Scope = { suite: [...scope.suite, nameOf(t.args[0])], inherited: [...scope.inherited, ...own], ctx: scope.ctx };
    if (own.length && !fnNode) model.fileMarkers.push(...own);
    const body = fnNode?.childForFieldName('body');
    if (body) walkScope(js, body, inner);
    else if (own.some((m) => m.kind === 'only')) model.fileMarkers.push(...own);
    if (own.some((m) => m.kind === 'only')) model.fileMarkers.push(...own.filter((m) => m.kind === 'only'));
    return;
  }
  const tc: TestCase = { name, markers: [...scope.inherited, ...own], assertions: [], span: span(call), body: norm(call) };
  model.tests.push(tc);
  if (fnNode) scanBody(js, fnNode, tc, { ...scope, ctx });
}

/** Collects a test function's assertions, runtime skips and subtests. */
function scanBody(js: JsFile, fnNode: Node, tc: TestCase, scope: Scope): void {
  const walk = (n: Node): void => {
    if (n.type === 'call_expression') {
      const tcall = testCall(js.sym, n, scope);
      if (tcall && tcall.kind !== 'hook') {
        declare(js, n, tcall, scope.suite.length ? { ...scope, suite: [...tc.name.split(' > ')] } : { ...scope, suite: [tc.name] });
        return;
      }
      runtimeSkips(js, n, tc, scope);
      collectMock(js, n);
    }
    const a = isAssertion(js.sym, n, scope);
    if (a) {
      tc.assertions.push(describeAssertion(js.sym, n, a, fnNode));
      return;
    }
    for (const c of n.namedChildren) if (c) walk(c);
  };
  const body = fnNode.childForFieldName('body');
  if (body) walk(body);
}

/** `t.skip()`, `this.skip()`, `test.skip()` called inside a test, and jasmine's `pending()`. */
function runtimeSkips(js: JsFile, n: Node, tc: TestCase, scope: Scope): void {
  const { base, ops } = flatten(n.childForFieldName('function') ?? n);
  const bName = base.type === 'identifier' ? base.text : base.type === 'this' ? 'this' : '';
  const p0 = ops[0];
  if (
    p0?.kind === 'prop' &&
    CTX_SKIPS.has(p0.name) &&
    (scope.ctx.has(bName) || bName === 'this' || ((TEST_ROOTS.has(bName) || js.sym.aliases.has(bName)) && ops.length === 1))
  ) {
    tc.markers.push({ kind: `runtime ${p0.name}`, span: span(n) });
  }
  if (bName === 'pending' && ops.length === 0) tc.markers.push({ kind: 'runtime pending', span: span(n) });
}

/** A module mock (`jest.mock('../src/x')`) or a spy on an imported name, recorded with its repository path. */
function collectMock(js: JsFile, call: Node): void {
  const { base, ops } = flatten(call.childForFieldName('function') ?? call);
  const b = base.type === 'identifier' ? base.text : '';
  const p0 = ops[0];
  if (ops.length !== 1 || p0?.kind !== 'prop') return;
  const args = argList(call.childForFieldName('arguments') ?? undefined);
  const how = `${b}.${p0.name}`;
  const resolveRepo = (spec: string): string | undefined =>
    spec.startsWith('.') ? posix.normalize(posix.join(posix.dirname(js.sym.file), spec)) : spec.startsWith('/') ? spec.slice(1) : undefined;
  if (
    MOCK_CALLS[b]?.has(p0.name) ||
    (b !== 'mock' && p0.name === 'module' && args[0] && strValue(args[0]) !== undefined && ops.length === 1 && b.length <= 3)
  ) {
    const target = strValue(args[0]);
    if (target === undefined) return;
    const repoPath = resolveRepo(target);
    js.model.mocks.push({ target, ...(repoPath ? { repoPath } : {}), how, span: span(call) });
  } else if (SPY_CALLS[b]?.has(p0.name) && args[0]?.type === 'identifier') {
    const src = js.sym.importedFrom.get(args[0].text);
    if (src === undefined) return;
    const repoPath = resolveRepo(src);
    const m = strValue(args[1]);
    js.model.mocks.push({ target: `${src}${m ? `#${m}` : ''}`, ...(repoPath ? { repoPath } : {}), how, span: span(call) });
  }
}

const DECL_TYPES = [
  'lexical_declaration',
  'variable_declaration',
  'function_declaration',
  'generator_function_declaration',
  'class_declaration',
  'type_alias_declaration',
  'interface_declaration',
  'enum_declaration',
  'empty_statement',
];

/** A statement outside any test: an import (with what it binds), a declaration, or code. */
function topLevelOf(s: Node, scope: Scope): TopLevel {
  const key = `${scope.suite.join(' > ')}|${norm(s)}`;
  if (s.type === 'import_statement') {
    const src = strValue(s.childForFieldName('source') ?? undefined) ?? '';
    const bindings: Record<string, string> = {};
    for (const id of s.descendantsOfType('identifier')) if (id) bindings[id.text] = src;
    return { key, kind: 'import', bindings, span: span(s) };
  }
  const inner = s.type === 'export_statement' ? (s.childForFieldName('declaration') ?? kids(s)[0]) : s;
  if (inner && DECL_TYPES.includes(inner.type)) {
    const req = inner.descendantsOfType('call_expression').find((c) => c?.childForFieldName('function')?.text === 'require');
    if (req) {
      const src = strValue(argList(req.childForFieldName('arguments') ?? undefined)[0]) ?? '';
      const bindings: Record<string, string> = {};
      for (const id of inner.childForFieldName('name')?.descendantsOfType(['identifier', 'shorthand_property_identifier_pattern']) ?? [])
        if (id) bindings[id.text] = src;
      for (const d of inner.descendantsOfType('variable_declarator'))
        for (const id of d?.childForFieldName('name')?.descendantsOfType(['identifier', 'shorthand_property_identifier_pattern']) ?? [])
          if (id) bindings[id.text] = src;
      return { key, kind: 'import', bindings, span: span(s) };
    }
    return { key, kind: 'declaration', span: span(s) };
  }
  return { key, kind: 'code', span: span(s) };
}
