/**
 * The folder-level import graph of src/, read with the TypeScript compiler API (every import, export-from
 * and dynamic import with a literal specifier; type-only imports count too: they are still an arrow).
 * Two levels are checked (import-cycles.test.ts): the top folders of src/ (src/agent with everything under
 * it is one node), and, inside each top folder, its subfolders (src/agent/context, src/agent/permissions…;
 * the top folder's own files are not a node there: a folder may use its parts and its parts the folder's
 * shared types). Files directly in src/ (log.ts) belong to "src".
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export const SRC = resolve('src');

/** A file's folder at `depth` 1 (src/agent) or 2 (src/agent/context; files of src/agent itself: src/agent/.). */
export function folderOf(file: string, depth: 1 | 2 = 1): string {
  const parts = relative(SRC, dirname(file)).split(sep).filter(Boolean);
  if (depth === 1 || parts.length === 0) return ['src', ...parts.slice(0, 1)].join('/');
  return ['src', parts[0], parts[1] ?? '.'].join('/');
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return tsFiles(p);
    return p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

export function specifiersOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      out.push(node.moduleSpecifier.text);
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      out.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/**
 * folder → folders it imports, with the imports as evidence (relative specifiers resolved under src/).
 * depth 1: top folders. depth 2: subfolders, edges only between siblings of one top folder.
 */
export function folderGraph(depth: 1 | 2 = 1): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of tsFiles(SRC)) {
    const from = folderOf(file, depth);
    const edges = graph.get(from) ?? new Map<string, string[]>();
    graph.set(from, edges);
    for (const spec of specifiersOf(file)) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(file), spec);
      if (!target.startsWith(SRC + sep)) continue;
      const to = folderOf(target, depth);
      if (to === from) continue;
      if (depth === 2 && (from.endsWith('/.') || to.endsWith('/.') || from.split('/')[1] !== to.split('/')[1])) continue;
      edges.set(to, [...(edges.get(to) ?? []), `${relative(SRC, file)} → ${spec}`]);
    }
  }
  return graph;
}

/** Strongly connected components with more than one folder: each is an import cycle between folders. */
export function cycles(graph: Map<string, Map<string, string[]>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const strong = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) strong(v);
  return out;
}
