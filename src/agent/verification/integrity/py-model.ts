import type { FileModel, Marker, TestCase } from './model.js';
import { kids, norm, type Node } from './parse.js';
import { args, assertionOf, span, str } from './py-syntax.js';

/** Decorator or `pytestmark` text that skips a test or excuses its failure. */
const SKIP_MARK = /\b(?:skip|skipif|skipIf|skipUnless|xfail|expectedFailure|SkipTest|skip_if|skip_unless)\b/;
const RUNTIME_SKIP = /^(?:pytest\.(?:skip|xfail|importorskip)|self\.skipTest|unittest\.skip\w*)$/;
const HOOK_METHODS = new Set([
  'setUp',
  'tearDown',
  'setUpClass',
  'tearDownClass',
  'setUpModule',
  'tearDownModule',
  'setup_method',
  'teardown_method',
  'setup_class',
  'teardown_class',
  'setup_function',
  'teardown_function',
  'setup_module',
  'teardown_module',
  'asyncSetUp',
  'asyncTearDown',
]);

/** The file being modelled: the model being built and the names it binds. */
interface PyFile {
  model: FileModel;
  /** Local name → dotted module (or module.attr) it was imported as. */
  importedFrom: Map<string, string>;
  /** `skip = pytest.mark.skip`-style aliases: name → normalized value. */
  aliases: Map<string, string>;
}

/** Builds the test model of one Python file (pytest and unittest conventions). */
export function pyModel(root: Node, file: string, hasError: boolean): FileModel {
  const py: PyFile = {
    model: { tests: [], mocks: [], topLevel: [], imports: [], fileMarkers: [], parseError: hasError },
    importedFrom: new Map(),
    aliases: new Map(),
  };
  void file;
  for (const n of root.descendantsOfType(['import_statement', 'import_from_statement'])) {
    if (n) readImport(py, n);
  }
  walkScope(py, root, [], [], false);
  return py.model;
}

/** `import a.b as c` / `from m import x as y`: the module imported and the names bound. */
function readImport(py: PyFile, n: Node): void {
  const { model, importedFrom } = py;
  if (n.type === 'import_statement') {
    for (const c of kids(n)) {
      const dotted = c.type === 'aliased_import' ? c.childForFieldName('name')?.text : c.text;
      const alias = c.type === 'aliased_import' ? c.childForFieldName('alias')?.text : c.text.split('.')[0];
      if (dotted) model.imports.push(dotted);
      if (dotted && alias) importedFrom.set(alias, c.type === 'aliased_import' ? dotted : (dotted.split('.')[0] ?? dotted));
    }
    return;
  }
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

/** A mark's text with a leading alias (`skip = pytest.mark.skip`) replaced by what it stands for. */
function resolveMark(py: PyFile, text: string): string {
  const head = /^[A-Za-z_]\w*/.exec(text)?.[0];
  const a = head ? py.aliases.get(head) : undefined;
  return a ? `${a}${text.slice(head?.length ?? 0)}` : text;
}

const markersOf = (py: PyFile, decorators: Node[]): Marker[] =>
  decorators.flatMap((d) => {
    const t = resolveMark(py, norm(kids(d)[0] ?? d));
    const m = SKIP_MARK.exec(t);
    return m ? [{ kind: m[0], span: span(d) }] : [];
  });

/** `patch('a.b')`, `patch.object(mod, 'x')`, `monkeypatch.setattr(...)`: recorded as a mock of its dotted target. */
function mockOf(py: PyFile, call: Node): void {
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
      const mod = py.importedFrom.get(head);
      if (mod) target = `${mod}${a[0].text.slice(head.length)}${str(a[1]) ? `.${str(a[1])}` : ''}`;
    }
  }
  if (target === undefined) return;
  py.model.mocks.push({ target, repoPath: `py:${target}`, how: t, span: span(call) });
}

/** Collects a test function's assertions, runtime skips and mocks. */
function scanTest(py: PyFile, fn: Node, tc: TestCase): void {
  const walk = (n: Node): void => {
    if (n.type === 'call') {
      const f = n.childForFieldName('function');
      const ft = f ? norm(f).replace(/\s/g, '') : '';
      if (RUNTIME_SKIP.test(ft)) tc.markers.push({ kind: `runtime ${ft}`, span: span(n) });
      mockOf(py, n);
    }
    if (n.type === 'raise_statement' && /SkipTest|skip\.Exception/.test(n.text))
      tc.markers.push({ kind: 'runtime raise SkipTest', span: span(n) });
    const a = assertionOf(n, fn);
    if (a) {
      tc.assertions.push(a);
      return;
    }
    for (const c of n.namedChildren) if (c) walk(c);
  };
  const body = fn.childForFieldName('body');
  if (body) walk(body);
}

const isTestClass = (cls: Node): boolean => {
  const name = cls.childForFieldName('name')?.text ?? '';
  const supers = norm(cls.childForFieldName('superclasses'));
  return /^Test/.test(name) || /TestCase\b/.test(supers);
};

/** `pytestmark = pytest.mark.skip` marks every test in the scope; `skip = pytest.mark.skip` is remembered as an alias. */
function scopeMarks(py: PyFile, block: Node): Marker[] {
  const marks: Marker[] = [];
  for (const s of kids(block)) {
    const asg = s.type === 'expression_statement' ? kids(s)[0] : undefined;
    if (asg?.type !== 'assignment') continue;
    const left = asg.childForFieldName('left')?.text ?? '';
    const right = asg.childForFieldName('right');
    if (left === 'pytestmark' && right && SKIP_MARK.test(resolveMark(py, norm(right)))) marks.push({ kind: 'pytestmark', span: span(s) });
    if (right && /^[A-Za-z_]\w*$/.test(left) && /\bmark\b|\bskip|\bxfail|expectedFailure/.test(right.text))
      py.aliases.set(left, resolveMark(py, norm(right)));
  }
  return marks;
}

/** Statements at module or test-class level: tests are modelled, test classes walked, everything else recorded. */
function walkScope(py: PyFile, block: Node, prefix: string[], inherited: Marker[], inClass: boolean): void {
  const { model } = py;
  const own = scopeMarks(py, block);
  model.fileMarkers.push(...own);
  const marks = [...inherited, ...own];
  for (const s of kids(block)) {
    const decorated = s.type === 'decorated_definition';
    const def = decorated ? s.childForFieldName('definition') : s;
    const decorators = decorated ? kids(s).filter((c) => c.type === 'decorator') : [];
    for (const d of decorators) for (const c of d.descendantsOfType('call')) if (c) mockOf(py, c);
    const key = `${prefix.join('::')}|${norm(s)}`;
    if (def?.type === 'function_definition') {
      const name = def.childForFieldName('name')?.text ?? '';
      if (/^test/.test(name) && (prefix.length === 0 || inClass)) {
        const tc: TestCase = {
          name: [...prefix, name].join('::'),
          markers: [...marks, ...markersOf(py, decorators)],
          assertions: [],
          span: span(s),
          body: norm(s),
        };
        model.tests.push(tc);
        scanTest(py, def, tc);
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
        walkScope(py, body, [...prefix, name], [...marks, ...markersOf(py, decorators)], true);
        continue;
      }
      model.topLevel.push({ key, kind: 'declaration', span: span(s) });
      continue;
    }
    if (s.type === 'import_statement' || s.type === 'import_from_statement' || s.type === 'future_import_statement') {
      const bindings: Record<string, string> = {};
      for (const [k, v] of py.importedFrom) if (s.text.includes(k)) bindings[k] = v;
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
}
