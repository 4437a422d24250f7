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

/**
 * The code a Go module ships: every `.go` file that is no `_test.go` (and the cgo sources beside them)
 * in a folder `go build` reads, under a folder holding go.mod, and the files its `//go:embed` directives
 * name. `_test.go` files (tests, benchmarks and examples) and testdata are not shipped.
 */
export async function goShipped(base: CommitTree, head: CommitTree): Promise<EcosystemView | undefined> {
  const modules = [...base.paths].filter((p) => p === 'go.mod' || p.endsWith('/go.mod')).map(dirOf);
  if (modules.length === 0) return undefined;
  const inModule = (p: string): boolean => modules.some((m) => m === '' || p.startsWith(`${m}/`));
  const shipped = new Set<string>();
  const goFiles: string[] = [];
  const pkgDirs = new Set<string>();
  for (const p of head.paths) {
    if (!inModule(p) || ignoredDir(p) || !p.endsWith('.go') || p.endsWith('_test.go')) continue;
    shipped.add(p);
    goFiles.push(p);
    pkgDirs.add(dirOf(p));
  }
  for (const p of head.paths) if (CGO_SOURCE.test(p) && pkgDirs.has(dirOf(p)) && !ignoredDir(p)) shipped.add(p);
  const texts = await head.read(goFiles);
  for (const [file, text] of texts) {
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
