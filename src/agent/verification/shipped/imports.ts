import { langOf, parseCode, type Node } from '../integrity/parse.js';

/** Walks every node of a tree (iteratively: deep files must not overflow the stack). */
function each(root: Node, visit: (n: Node) => void): void {
  const stack: Node[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    visit(n);
    for (const c of n.namedChildren) if (c) stack.push(c);
  }
}

const unquote = (n: Node | null | undefined): string | undefined => {
  if (!n || n.type !== 'string') return undefined;
  const t = n.text;
  return t.length >= 2 ? t.slice(1, -1) : undefined;
};

/**
 * The module specifiers a JavaScript/TypeScript file loads with a literal: static imports, re-exports,
 * `import x = require()`, `require()` and `import()` calls. Read with the real grammar; a file that does
 * not parse yields what the parser recovered.
 */
export async function jsImports(path: string, text: string): Promise<string[]> {
  const lang = langOf(path);
  if (!lang || lang === 'python') return [];
  const { root } = await parseCode(lang, text);
  const out: string[] = [];
  each(root, (n) => {
    if (n.type === 'import_statement' || n.type === 'export_statement') {
      const s = unquote(n.childForFieldName('source'));
      if (s !== undefined) out.push(s);
    } else if (n.type === 'import_require_clause') {
      const s = unquote(n.namedChildren.find((c) => c?.type === 'string'));
      if (s !== undefined) out.push(s);
    } else if (n.type === 'call_expression') {
      const fn = n.childForFieldName('function');
      if (!fn || !(fn.type === 'import' || (fn.type === 'identifier' && fn.text === 'require'))) return;
      const first = n.childForFieldName('arguments')?.namedChildren.find((c) => c?.type !== 'comment');
      const s = unquote(first);
      if (s !== undefined) out.push(s);
    }
  });
  return out;
}

/** A Python import: the dotted module, its relative level (leading dots), and the names imported from it. */
export interface PyImport {
  module: string;
  level: number;
  names: string[];
}

/** The imports of a Python file (`import a.b`, `from .c import d`), read with the real grammar. */
export async function pyImports(text: string): Promise<PyImport[]> {
  const { root } = await parseCode('python', text);
  const out: PyImport[] = [];
  const dotted = (n: Node | null | undefined): string | undefined =>
    n?.type === 'dotted_name' ? n.text : n?.type === 'aliased_import' ? dotted(n.childForFieldName('name')) : undefined;
  each(root, (n) => {
    if (n.type === 'import_statement') {
      for (const c of n.namedChildren) {
        const m = dotted(c);
        if (m) out.push({ module: m, level: 0, names: [] });
      }
    } else if (n.type === 'import_from_statement') {
      const mod = n.childForFieldName('module_name');
      let module = '';
      let level = 0;
      if (mod?.type === 'relative_import') {
        level = (mod.namedChildren.find((c) => c?.type === 'import_prefix')?.text ?? '').length;
        module = mod.namedChildren.find((c) => c?.type === 'dotted_name')?.text ?? '';
      } else module = dotted(mod) ?? '';
      const names = n.namedChildren
        .filter((c) => c !== mod)
        .map((c) => dotted(c))
        .filter((x): x is string => !!x);
      out.push({ module, level, names });
    }
  });
  return out;
}
