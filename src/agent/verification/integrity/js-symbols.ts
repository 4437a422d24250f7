import type { Node } from './parse.js';
import { kids } from './parse.js';
import { ASSERT_MODULES, SUITE_ROOTS, TEST_ROOTS, argList, flatten, strValue } from './js-syntax.js';

/** What a JS/TS test file binds, read before its tests (pass 1 of jsModel). */
export interface JsSymbols {
  /** The file's repository path. */
  file: string;
  /** Aliases of test functions (`const skip = test.skip`, `const { test } = require('node:test')`, `import { it as t }`). */
  aliases: Map<string, { root: string; props: string[] }>;
  /** Const object literals by name (test options passed by name). */
  objects: Map<string, Node>;
  /** Names that assert (expect, assert, and whatever an assertion module's import binds). */
  assertNames: Set<string>;
  /** Module specifiers imported or required, in order. */
  imports: string[];
  /** The module each imported or required name comes from. */
  importedFrom: Map<string, string>;
}

/** Pass 1: imports, aliases of test functions, const objects. */
export function jsSymbols(root: Node, file: string): JsSymbols {
  const sym: JsSymbols = {
    file,
    aliases: new Map(),
    objects: new Map(),
    assertNames: new Set(['expect', 'assert', 'expectTypeOf', 'assertType']),
    imports: [],
    importedFrom: new Map(),
  };
  for (const n of root.descendantsOfType(['import_statement', 'variable_declarator', 'call_expression'])) {
    if (!n) continue;
    if (n.type === 'import_statement') importSymbols(sym, n);
    else if (n.type === 'call_expression') requireSymbols(sym, n);
    else aliasSymbols(sym, n);
  }
  return sym;
}

function bind(sym: JsSymbols, name: string, src: string): void {
  sym.importedFrom.set(name, src);
  if (ASSERT_MODULES.test(src)) sym.assertNames.add(name);
}

function importSymbols(sym: JsSymbols, n: Node): void {
  const src = strValue(n.childForFieldName('source') ?? undefined) ?? '';
  sym.imports.push(src);
  for (const id of n.descendantsOfType(['identifier'])) {
    if (
      !id ||
      (id.parent?.type === 'import_specifier' && id.parent.childForFieldName('alias') && id.parent.childForFieldName('name')?.id === id.id)
    )
      continue;
    bind(sym, id.text, src);
  }
  for (const sp of n.descendantsOfType('import_specifier')) {
    const name = sp?.childForFieldName('name')?.text;
    const alias = sp?.childForFieldName('alias')?.text;
    if (name && alias && (TEST_ROOTS.has(name) || SUITE_ROOTS.has(name))) sym.aliases.set(alias, { root: name, props: [] });
  }
}

/** `require('x')` and `import('x')`: the specifier, and the names a declarator binds from it. */
function requireSymbols(sym: JsSymbols, n: Node): void {
  const fn = n.childForFieldName('function');
  const a0 = argList(n.childForFieldName('arguments') ?? undefined)[0];
  if (!((fn?.text === 'require' || fn?.type === 'import') && a0)) return;
  const src = strValue(a0);
  if (src === undefined) return;
  sym.imports.push(src);
  const decl = n.parent?.type === 'variable_declarator' ? n.parent.childForFieldName('name') : undefined;
  for (const id of decl ? decl.descendantsOfType(['identifier', 'shorthand_property_identifier_pattern']) : []) {
    if (!id) continue;
    bind(sym, id.text, src);
  }
}

/** A variable declarator: a const object, or an alias of a test function (by name or destructured). */
function aliasSymbols(sym: JsSymbols, n: Node): void {
  const { aliases } = sym;
  const name = n.childForFieldName('name');
  const value = n.childForFieldName('value');
  if (!name || !value) return;
  if (name.type === 'identifier' && value.type === 'object') sym.objects.set(name.text, value);
  const f = flatten(value);
  const baseName = f.base.type === 'identifier' ? f.base.text : undefined;
  const known =
    baseName &&
    (TEST_ROOTS.has(baseName) || SUITE_ROOTS.has(baseName) || aliases.has(baseName) || /^[xf](?:it|test|describe)$/.test(baseName));
  if (!known || f.ops.some((o) => o.kind === 'call')) return;
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
