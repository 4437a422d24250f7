import { dirOf, type CommitTree } from './tree.js';
import type { EcosystemView } from './types.js';

/** The files `go build` compiles into a package (go/build's list of file kinds), besides `.go`. */
const CGO_SOURCE = /\.(?:c|h|s|S|cc|cpp|cxx|hh|hpp|hxx|m|f|F|for|f90|syso)$/;

/** go/build's rule: folders named testdata or starting with `.` or `_` hold no package. */
const ignoredDir = (p: string): boolean =>
  dirOf(p)
    .split('/')
    .some((part) => part === 'testdata' || /^[._]/.test(part));

/** `//go:embed` patterns of a Go source, relative to its folder. */
function embedPatterns(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\/\/go:embed\s+(.+)$/gm))
    for (const w of (m[1] ?? '').match(/"[^"]*"|`[^`]*`|\S+/g) ?? []) out.push(w.replace(/^["`]|["`]$/g, ''));
  return out;
}

function globRe(pattern: string): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  return new RegExp(`^${body}(?:/.*)?$`);
}

/** The import paths of a Go source (single imports and import blocks). */
export function goImports(text: string): string[] {
  const out: string[] = [];
  const body = text.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const m of body.matchAll(/^import\s+(?:[\w.]+\s+)?"([^"]+)"/gm)) out.push(m[1] ?? '');
  for (const m of body.matchAll(/^import\s*\(([\s\S]*?)\)/gm))
    for (const l of (m[1] ?? '').matchAll(/^\s*(?:[\w.]+\s+)?"([^"]+)"/gm)) out.push(l[1] ?? '');
  return out;
}

const isInternal = (dir: string): boolean => dir.split('/').includes('internal');

/**
 * The package folders of the module that ship: every package outside `internal/` (another module can
 * import it), and the internal packages those import, transitively. An internal package only tests
 * import (a test harness) is not shipped.
 */
function shippedDirs(texts: Map<string, string>, modules: Array<{ dir: string; path: string }>): Set<string> {
  const byDir = new Map<string, string[]>();
  for (const [f, t] of texts) byDir.set(dirOf(f), [...(byDir.get(dirOf(f)) ?? []), ...goImports(t)]);
  const dirOfImport = (imp: string): string | undefined => {
    for (const m of modules) {
      if (imp === m.path) return m.dir;
      if (imp.startsWith(`${m.path}/`)) return m.dir ? `${m.dir}/${imp.slice(m.path.length + 1)}` : imp.slice(m.path.length + 1);
    }
    return undefined;
  };
  const out = new Set([...byDir.keys()].filter((d) => !isInternal(d)));
  let frontier = [...out];
  while (frontier.length) {
    const next: string[] = [];
    for (const d of frontier)
      for (const imp of byDir.get(d) ?? []) {
        const t = dirOfImport(imp);
        if (t !== undefined && byDir.has(t) && !out.has(t)) {
          out.add(t);
          next.push(t);
        }
      }
    frontier = next;
  }
  return out;
}

/**
 * The code a Go module ships: every `.go` file that is no `_test.go` (and the cgo sources beside them)
 * in a folder `go build` reads, under a folder holding go.mod, and the files its `//go:embed` directives
 * name. `_test.go` files (tests, benchmarks and examples) and testdata are not shipped.
 */
export async function goShipped(base: CommitTree, head: CommitTree): Promise<EcosystemView | undefined> {
  const modules = [...base.paths].filter((p) => p === 'go.mod' || p.endsWith('/go.mod')).map(dirOf);
  if (modules.length === 0) return undefined;
  const modTexts = await base.read(modules.map((m) => (m ? `${m}/go.mod` : 'go.mod')));
  const modPaths = modules.map((dir) => ({
    dir,
    path: /^module\s+(\S+)/m.exec(modTexts.get(dir ? `${dir}/go.mod` : 'go.mod') ?? '')?.[1] ?? '',
  }));
  const inModule = (p: string): boolean => modules.some((m) => m === '' || p.startsWith(`${m}/`));
  const shipped = new Set<string>();
  const goFiles: string[] = [];
  for (const p of head.paths) {
    if (!inModule(p) || ignoredDir(p) || !p.endsWith('.go') || p.endsWith('_test.go')) continue;
    shipped.add(p);
    goFiles.push(p);
  }
  const texts = await head.read(goFiles);
  const dirs = shippedDirs(
    texts,
    modPaths.filter((m) => m.path),
  );
  for (const f of goFiles) if (!dirs.has(dirOf(f))) shipped.delete(f);
  for (const p of head.paths) if (CGO_SOURCE.test(p) && dirs.has(dirOf(p)) && !ignoredDir(p)) shipped.add(p);
  for (const [file, text] of texts) {
    if (!dirs.has(dirOf(file))) continue;
    const dir = dirOf(file);
    for (const pat of embedPatterns(text)) {
      const re = globRe(dir ? `${dir}/${pat.replace(/^all:/, '')}` : pat.replace(/^all:/, ''));
      for (const p of head.paths) if (re.test(p)) shipped.add(p);
    }
  }
  return {
    ecosystem: 'go',
    basis: `the non-test Go sources \`go build\` compiles in ${modules.map((m) => (m ? `${m}/go.mod` : 'go.mod')).join(', ')} and the files they embed`,
    shipped: (p) => shipped.has(p),
    manifests: modules.flatMap((m) => [m ? `${m}/go.mod` : 'go.mod', m ? `${m}/go.sum` : 'go.sum']),
  };
}
