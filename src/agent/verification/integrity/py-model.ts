import type { Assertion, FileModel, Guard, Marker, Span, TestCase } from './model.js';
import { kids, linesOf, norm, type Node } from './parse.js';

/** Decorator or `pytestmark` text that skips a test or excuses its failure. */
const SKIP_MARK = /\b(?:skip|skipif|skipIf|skipUnless|xfail|expectedFailure|SkipTest|skip_if|skip_unless)\b/;
const RUNTIME_SKIP = /^(?:pytest\.(?:skip|xfail|importorskip)|self\.skipTest|unittest\.skip\w*)$/;
const HOOK_METHODS = new Set(['setUp', 'tearDown', 'setUpClass', 'tearDownClass', 'setUpModule', 'tearDownModule', 'setup_method', 'teardown_method', 'setup_class', 'teardown_class', 'setup_function', 'teardown_function', 'setup_module', 'teardown_module', 'asyncSetUp', 'asyncTearDown']);
const FUNCS = new Set(['function_definition', 'lambda']);
const LOOPS = new Set(['for_statement', 'while_statement', 'list_comprehension', 'generator_expression', 'set_comprehension', 'dictionary_comprehension']);

const span = (n: Node): Span => ({ ...linesOf(n), text: n.text });
const guarded = (g: Partial<Record<Guard, Span>>): { guards: Guard[]; guardSpans: Partial<Record<Guard, Span>> } => ({ guards: Object.keys(g) as Guard[], guardSpans: g });
const str = (n: Node | undefined | null): string | undefined => {
  if (!n || n.type !== 'string') return undefined;
  const m = /^[rbuf]*('''|"""|'|")([\s\S]*)\1$/i.exec(n.text);
  return m ? m[2] : undefined;
};
const args = (call: Node): Node[] => kids(call.childForFieldName('arguments') ?? call).filter((a) => a.type !== 'keyword_argument');

/** Builds the test model of one Python file (pytest and unittest conventions). */
export function pyModel(root: Node, file: string, hasError: boolean): FileModel {
  const model: FileModel = { tests: [], mocks: [], topLevel: [], imports: [], fileMarkers: [], parseError: hasError };
  /** Local name → dotted module (or module.attr) it was imported as. */
  const importedFrom = new Map<string, string>();
  /** `skip = pytest.mark.skip`-style aliases: name → normalized value. */
  const aliases = new Map<string, string>();
  void file;

  for (const n of root.descendantsOfType(['import_statement', 'import_from_statement'])) {
    if (!n) continue;
    if (n.type === 'import_statement') {
      for (const c of kids(n)) {
        const dotted = c.type === 'aliased_import' ? c.childForFieldName('name')?.text : c.text;
        const alias = c.type === 'aliased_import' ? c.childForFieldName('alias')?.text : c.text.split('.')[0];
        if (dotted) model.imports.push(dotted);
        if (dotted && alias) importedFrom.set(alias, c.type === 'aliased_import' ? dotted : (dotted.split('.')[0] ?? dotted));
      }
    } else {
      const mod = n.childForFieldName('module_name')?.text ?? '';
      model.imports.push(mod);
      for (const c of kids(n).slice(1)) {
        const name = c.type === 'aliased_import' ? c.childForFieldName('name')?.text : c.text;
        const alias = c.type === 'aliased_import' ? c.childForFieldName('alias')?.text : c.text;
        if (name && alias && c.type !== 'wildcard_import') {
          importedFrom.set(alias, mod.endsWith('.') ? `${mod}${name}` : `${mod}.${name}`);
          model.imports.push(mod.endsWith('.') ? `${mod}${name}` : `${mod}.${name}`);
        }
      }
    }
  }

  const resolveMark = (text: string): string => {
    const head = /^[A-Za-z_]\w*/.exec(text)?.[0];
    const a = head ? aliases.get(head) : undefined;
    return a ? `${a}${text.slice(head?.length ?? 0)}` : text;
  };

  const markersOf = (decorators: Node[]): Marker[] =>
    decorators.flatMap((d) => {
      const t = resolveMark(norm(kids(d)[0] ?? d));
      const m = SKIP_MARK.exec(t);
      return m ? [{ kind: m[0], span: span(d) }] : [];
    });

  const guardsOf = (n: Node, fn: Node): Partial<Record<Guard, Span>> => {
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
  };

  const assertionOf = (n: Node, fn: Node): Assertion | undefined => {
    if (n.type === 'assert_statement') {
      const e = kids(n)[0];
      let subject = norm(e);
      let matcher = 'assert';
      let rest: string[] = [];
      if (e?.type === 'comparison_operator') {
        const parts = kids(e);
        subject = norm(parts[0]);
        matcher = `assert ${e.children.filter((c) => c && !c.isNamed).map((c) => c?.text).join(' ')}`;
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
    const isSelf = (obj === 'self' || obj === 'cls') && (/^assert/.test(name) || name === 'fail' || name === 'fail_' || /^failUnless|^failIf/.test(name));
    const isMockAssert = /^assert_(?:called|not_called|any_call|has_calls|awaited|not_awaited)/.test(name);
    const isFnAssert = /^assert/i.test(name) && !isSelf;
    if (!isPytest && !isSelf && !isMockAssert && !isFnAssert) return undefined;
    const subject = isMockAssert ? obj : (a[0] ?? '');
    const matcher = isMockAssert ? `mock.${name}` : obj && !isSelf ? `${obj}.${name}` : name;
    return { key: norm(n), subject, matcher, args: isMockAssert ? a : a.slice(1), ...guarded(guardsOf(n, fn)), span: span(n) };
  };

  const mockOf = (call: Node): void => {
    const f = call.childForFieldName('function');
    if (!f) return;
    const t = norm(f).replace(/\s/g, '');
    const a = args(call);
    let target: string | undefined;
    if (/(?:^|\.)patch(?:\.dict)?$/.test(t) || /^mocker\.patch$/.test(t)) target = str(a[0]);
    else if (/(?:^|\.)patch\.object$|^mocker\.patch\.object$|^monkeypatch\.(?:setattr|delattr)$/.test(t)) {
      const s = str(a[0]);
      if (s !== undefined) target = s;
      else if (a[0]?.type === 'identifier' || a[0]?.type === 'attribute') {
        const head = a[0].text.split('.')[0] ?? '';
        const mod = importedFrom.get(head);
        if (mod) target = `${mod}${a[0].text.slice(head.length)}${str(a[1]) ? `.${str(a[1])}` : ''}`;
      }
    }
    if (target === undefined) return;
    model.mocks.push({ target, repoPath: `py:${target}`, how: t, span: span(call) });
  };

  const scanTest = (fn: Node, tc: TestCase): void => {
    const walk = (n: Node): void => {
      if (n.type === 'call') {
        const f = n.childForFieldName('function');
        const ft = f ? norm(f).replace(/\s/g, '') : '';
        if (RUNTIME_SKIP.test(ft)) tc.markers.push({ kind: `runtime ${ft}`, span: span(n) });
        mockOf(n);
      }
      if (n.type === 'raise_statement' && /SkipTest|skip\.Exception/.test(n.text)) tc.markers.push({ kind: 'runtime raise SkipTest', span: span(n) });
      const a = assertionOf(n, fn);
      if (a) {
        tc.assertions.push(a);
        return;
      }
      for (const c of n.namedChildren) if (c) walk(c);
    };
    const body = fn.childForFieldName('body');
    if (body) walk(body);
  };

  const isTestClass = (cls: Node): boolean => {
    const name = cls.childForFieldName('name')?.text ?? '';
    const supers = norm(cls.childForFieldName('superclasses'));
    return /^Test/.test(name) || /TestCase\b/.test(supers);
  };

  const walkScope = (block: Node, prefix: string[], inherited: Marker[], inClass: boolean): void => {
    // `pytestmark = pytest.mark.skip` marks every test in the scope.
    const scopeMarks: Marker[] = [];
    for (const s of kids(block)) {
      const asg = s.type === 'expression_statement' ? kids(s)[0] : undefined;
      if (asg?.type === 'assignment') {
        const left = asg.childForFieldName('left')?.text ?? '';
        const right = asg.childForFieldName('right');
        if (left === 'pytestmark' && right && SKIP_MARK.test(resolveMark(norm(right)))) scopeMarks.push({ kind: 'pytestmark', span: span(s) });
        if (right && /^[A-Za-z_]\w*$/.test(left) && /\bmark\b|\bskip|\bxfail|expectedFailure/.test(right.text)) aliases.set(left, resolveMark(norm(right)));
      }
    }
    model.fileMarkers.push(...scopeMarks);
    const marks = [...inherited, ...scopeMarks];
    for (const s of kids(block)) {
      const decorated = s.type === 'decorated_definition';
      const def = decorated ? s.childForFieldName('definition') : s;
      const decorators = decorated ? kids(s).filter((c) => c.type === 'decorator') : [];
      for (const d of decorators) for (const c of d.descendantsOfType('call')) if (c) mockOf(c);
      const key = `${prefix.join('::')}|${norm(s)}`;
      if (def?.type === 'function_definition') {
        const name = def.childForFieldName('name')?.text ?? '';
        if (/^test/.test(name) && (prefix.length === 0 || inClass)) {
          const tc: TestCase = { name: [...prefix, name].join('::'), markers: [...marks, ...markersOf(decorators)], assertions: [], span: span(s), body: norm(s) };
          model.tests.push(tc);
          scanTest(def, tc);
          continue;
        }
        const autouse = decorators.some((d) => /fixture/.test(d.text) && /autouse\s*=\s*True/.test(d.text));
        const hook = autouse || /^pytest_/.test(name) || (inClass && HOOK_METHODS.has(name)) || (!inClass && HOOK_METHODS.has(name));
        model.topLevel.push({ key, kind: hook ? 'hook' : 'declaration', span: span(s) });
        continue;
      }
      if (def?.type === 'class_definition') {
        const name = def.childForFieldName('name')?.text ?? '';
        const body = def.childForFieldName('body');
        if (isTestClass(def) && body) {
          walkScope(body, [...prefix, name], [...marks, ...markersOf(decorators)], true);
          continue;
        }
        model.topLevel.push({ key, kind: 'declaration', span: span(s) });
        continue;
      }
      if (s.type === 'import_statement' || s.type === 'import_from_statement' || s.type === 'future_import_statement') {
        const bindings: Record<string, string> = {};
        for (const [k, v] of importedFrom) if (s.text.includes(k)) bindings[k] = v;
        model.topLevel.push({ key, kind: 'import', bindings, span: span(s) });
        continue;
      }
      const inner = s.type === 'expression_statement' ? kids(s)[0] : undefined;
      if (inner?.type === 'assignment' || (inner?.type === 'string' && kids(s).length === 1)) {
        model.topLevel.push({ key, kind: 'declaration', span: span(s) });
        continue;
      }
      if (s.type === 'pass_statement') continue;
      model.topLevel.push({ key, kind: 'code', span: span(s) });
    }
  };

  walkScope(root, [], [], false);
  return model;
}

function exits(s: Node): boolean {
  if (s.type === 'return_statement' || s.type === 'raise_statement') return true;
  if (s.type === 'function_definition' || s.type === 'class_definition' || s.type === 'lambda' || s.type === 'decorated_definition') return false;
  for (const c of s.namedChildren) if (c && exits(c)) return true;
  return false;
}
