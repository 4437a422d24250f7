import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';

export type Lang = 'javascript' | 'typescript' | 'tsx' | 'python';
export type { Node, Tree };

const WASM: Record<Lang, string> = {
  javascript: 'tree-sitter-javascript/tree-sitter-javascript.wasm',
  typescript: 'tree-sitter-typescript/tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-typescript/tree-sitter-tsx.wasm',
  python: 'tree-sitter-python/tree-sitter-python.wasm',
};

let wasmDir: string | undefined;
const loading = new Map<Lang, Promise<Parser>>();

/**
 * Load the grammar wasm files (and tree-sitter.wasm) from `dir` instead of node_modules: the Action's
 * single-file bundle ships them next to itself. Call before the first parse.
 */
export function setCodeWasmDir(dir: string): void {
  wasmDir = dir;
}

/** The language a path is parsed as, or undefined when it is not JS/TS/Python source. */
export function langOf(path: string): Lang | undefined {
  if (/\.(?:[cm]?js|jsx)$/i.test(path)) return 'javascript';
  if (/\.(?:[cm]?ts)$/i.test(path)) return 'typescript';
  if (/\.tsx$/i.test(path)) return 'tsx';
  if (/\.pyi?$/i.test(path)) return 'python';
  return undefined;
}

function loadParser(lang: Lang): Promise<Parser> {
  let p = loading.get(lang);
  if (!p) {
    p = (async () => {
      const require = createRequire(import.meta.url);
      const dir = wasmDir;
      await Parser.init(dir ? { locateFile: (file: string) => join(dir, file) } : undefined);
      const file = WASM[lang];
      const language = await Language.load(dir ? join(dir, file.split('/').pop() ?? file) : require.resolve(file));
      const parser = new Parser();
      parser.setLanguage(language);
      return parser;
    })().catch((e: unknown) => {
      loading.delete(lang);
      throw new Error(`cannot load the ${lang} parser (${WASM[lang]}): ${(e as Error).message}`);
    });
    loading.set(lang, p);
  }
  return p;
}

export interface Parsed {
  tree: Tree;
  root: Node;
  /** True when the parser had to recover from a syntax error somewhere in the file. */
  hasError: boolean;
}

/** Parses source text with the real grammar (tree-sitter, WASM). Throws only when the grammar can't load. */
export async function parseCode(lang: Lang, text: string): Promise<Parsed> {
  const parser = await loadParser(lang);
  const tree = parser.parse(text);
  if (!tree) throw new Error(`the ${lang} parser returned no tree`);
  return { tree, root: tree.rootNode, hasError: tree.rootNode.hasError };
}

/** Node children without comments, named only. */
export function kids(n: Node): Node[] {
  return n.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
}

/**
 * The node's text with comments dropped and whitespace collapsed between tokens, string quotes
 * unified: two nodes that differ only in formatting or comments normalize to the same string.
 */
export function norm(n: Node | null | undefined): string {
  if (!n) return '';
  const out: string[] = [];
  const walk = (x: Node): void => {
    if (x.type === 'comment') return;
    if (x.type === 'string' || x.type === 'string_fragment' || x.childCount === 0) {
      if (x.type === 'string' && x.childCount > 0 && /^['"]/.test(x.text) && !x.text.startsWith('"""') && !x.text.startsWith("'''")) {
        out.push(JSON.stringify(x.text.slice(1, -1)));
        return;
      }
      if (x.childCount === 0) {
        out.push(x.text);
        return;
      }
    }
    for (const c of x.children) if (c) walk(c);
  };
  walk(n);
  return out.join(' ');
}

/** 1-based first and last line of a node. */
export function linesOf(n: Node): { start: number; end: number } {
  return { start: n.startPosition.row + 1, end: n.endPosition.row + 1 };
}
