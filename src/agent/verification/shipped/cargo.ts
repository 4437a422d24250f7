import { parse as parseToml } from 'smol-toml';
import { dirOf, joinPath, type CommitTree } from './tree.js';
import type { EcosystemView } from './types.js';

type Toml = Record<string, unknown>;
const isObject = (v: unknown): v is Toml => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Cargo's target folders that build tests, benchmarks and examples, never the crate itself. */
const NON_SHIPPED_TARGETS = ['tests', 'benches', 'examples'];

async function manifest(tree: CommitTree, dir: string): Promise<Toml | undefined> {
  const t = await tree.text(dir ? `${dir}/Cargo.toml` : 'Cargo.toml');
  try {
    return t === undefined ? undefined : parseToml(t);
  } catch {
    return undefined;
  }
}

/** The crate folders: those holding a Cargo.toml with a [package] (the root's workspace members included). */
async function crates(tree: CommitTree): Promise<Array<{ dir: string; toml: Toml }>> {
  const out: Array<{ dir: string; toml: Toml }> = [];
  for (const p of tree.paths) {
    if (p !== 'Cargo.toml' && !p.endsWith('/Cargo.toml')) continue;
    const dir = dirOf(p);
    const toml = await manifest(tree, dir);
    if (toml && isObject(toml.package)) out.push({ dir, toml });
  }
  return out;
}

/**
 * The code a Cargo package ships: the Rust sources of its library and binaries (`src/`, and the paths
 * `[lib]`/`[[bin]]` name), its `build.rs`; not its `tests/`, `benches/` or `examples/` targets. Inside a
 * shipped source, the `#[cfg(test)]` items are tests (`mixed`: judged by part).
 */
export async function cargoShipped(base: CommitTree, head: CommitTree): Promise<EcosystemView | undefined> {
  const list = await crates(base);
  if (list.length === 0) return undefined;
  const roots: string[] = [];
  for (const { dir, toml } of list) {
    const at = (p: string): string => joinPath(dir, p) ?? p;
    roots.push(at('src'));
    const lib = isObject(toml.lib) && typeof toml.lib.path === 'string' ? [toml.lib.path] : [];
    const bins = Array.isArray(toml.bin)
      ? toml.bin
          .filter(isObject)
          .map((b) => b.path)
          .filter((p): p is string => typeof p === 'string')
      : [];
    for (const p of [...lib, ...bins]) roots.push(at(dirOf(p) || p));
    const pkg = toml.package as Toml;
    roots.push(at(typeof pkg.build === 'string' ? pkg.build : 'build.rs'));
  }
  const excluded = list.flatMap(({ dir }) => NON_SHIPPED_TARGETS.map((t) => joinPath(dir, t) ?? t));
  const shipped = (p: string): boolean =>
    p.endsWith('.rs') && !excluded.some((e) => p.startsWith(`${e}/`)) && roots.some((r) => p === r || p.startsWith(`${r}/`));
  const manifests = list.flatMap(({ dir }) => [joinPath(dir, 'Cargo.toml') ?? 'Cargo.toml']);
  for (const m of ['Cargo.lock', 'Cargo.toml']) if (head.paths.has(m) && !manifests.includes(m)) manifests.push(m);
  return {
    ecosystem: 'cargo',
    basis: `the Rust sources of the library and binaries of ${manifests.filter((m) => m.endsWith('Cargo.toml')).join(', ')}, outside their #[cfg(test)] items`,
    shipped,
    manifests,
    mixed: shipped,
  };
}
