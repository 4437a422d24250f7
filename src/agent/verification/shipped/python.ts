import { parse as parseToml } from 'smol-toml';
import { pyImports } from './imports.js';
import { dirOf, joinPath, type CommitTree } from './tree.js';
import type { EcosystemView } from './types.js';

type Toml = Record<string, unknown>;
const isObject = (v: unknown): v is Toml => typeof v === 'object' && v !== null && !Array.isArray(v);
const get = (v: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((o, k) => (isObject(o) ? o[k] : undefined), v);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : typeof v === 'string' ? [v] : [];

/**
 * The source files of a Python package a wheel holds or builds from (setuptools, hatch, poetry and flit
 * build these; data needs an explicit declaration): Python and Cython sources, and the C-family sources
 * and headers of extension modules inside the package.
 */
const PY_SOURCE = /\.(?:py|pyi|pyx|pxd|c|h|cc|cpp|cxx|hh|hpp|hxx)$/;

/**
 * setuptools' automatic discovery (its documented flat-layout rule): the top-level names it never
 * takes for a package or a module. Followed because it is what the wheel of a project that declares
 * nothing would hold.
 */
const FLAT_EXCLUDED =
  /^(?:ci|bin|debian|docs?|documentation|manpages|news|newsfragments|changelog|tests?|unit_tests?|examples?|scripts|tools|utils?|python|build|dist|venv|env|requirements|tasks|fabfile|site_scons|benchmarks?|exercises?|htmlcov|setup|conftest|toolbox|manage|noxfile|pavement|dodo|[Ss][Cc]onstruct|conanfile|[._].*)$/;

/** Folders (repository paths) whose Python sources the project's wheel holds, from its manifests. */
function declaredRoots(
  pyproject: unknown,
  paths: Set<string>,
  setupPy?: { py: string; cfg: string },
): { roots: string[]; how: string } | undefined {
  const st = get(pyproject, 'tool', 'setuptools');
  const dirMap = get(st, 'package-dir');
  const under = isObject(dirMap) && typeof dirMap[''] === 'string' ? (dirMap[''] as string).replace(/\/$/, '') : '';
  const pkgs = strings(get(st, 'packages'));
  if (pkgs.length)
    return { roots: pkgs.map((p) => joinPath(under, p.replace(/\./g, '/')) ?? p), how: 'pyproject.toml [tool.setuptools] packages' };
  const find = get(st, 'packages', 'find');
  if (isObject(find)) {
    const where = strings(find.where);
    return { roots: where.length ? where : ['.'], how: 'pyproject.toml [tool.setuptools.packages.find]' };
  }
  const hatch = strings(get(pyproject, 'tool', 'hatch', 'build', 'targets', 'wheel', 'packages'));
  if (hatch.length) return { roots: hatch, how: 'pyproject.toml [tool.hatch.build.targets.wheel] packages' };
  const poetry = get(pyproject, 'tool', 'poetry', 'packages');
  if (Array.isArray(poetry)) {
    const roots = poetry.filter(isObject).map((p) => joinPath(typeof p.from === 'string' ? p.from : '', String(p.include ?? '')) ?? '');
    if (roots.length) return { roots: roots.filter(Boolean), how: 'pyproject.toml [tool.poetry] packages' };
  }
  if (setupPy) {
    // setup.py / setup.cfg with a literal package list: setuptools does not discover then.
    const py = /\bpackages\s*=\s*\[([^\]]*)\]/.exec(setupPy.py);
    const cfg = /^packages\s*=[ \t]*((?:[ \t]*[\w.]+[ \t]*\n?)+)/m.exec(setupPy.cfg);
    const list = py
      ? [...(py[1] ?? '').matchAll(/['"]([A-Za-z_][\w.]*)['"]/g)]
      : cfg
        ? [...(cfg[1] ?? '').matchAll(/([A-Za-z_][\w.]*)/g)]
        : [];
    const names = list.map((x) => x[1] ?? '').filter((n) => n && n !== 'find');
    if (names.length) return { roots: names.map((n) => n.replace(/\./g, '/')), how: 'the package list of setup.py or setup.cfg' };
  }
  const flit = get(pyproject, 'tool', 'flit', 'module', 'name');
  if (typeof flit === 'string') {
    const dir = [flit, `src/${flit}`].find((d) => paths.has(`${d}/__init__.py`));
    if (dir) return { roots: [dir], how: 'pyproject.toml [tool.flit.module]' };
  }
  return undefined;
}

/** setuptools' automatic discovery: the src layout, else top-level packages and modules of the flat layout. */
function discovered(paths: Set<string>): string[] {
  if ([...paths].some((p) => p.startsWith('src/') && PY_SOURCE.test(p))) return ['src'];
  const roots = new Set<string>();
  for (const p of paths) {
    const top = p.split('/')[0] ?? '';
    const name = top.replace(/\.py$/, '');
    if (FLAT_EXCLUDED.test(name)) continue;
    if (p === `${top}/__init__.py` || (!p.includes('/') && p.endsWith('.py'))) roots.add(top);
  }
  return [...roots];
}

/** The Python files a module name can be, from the folders imports are resolved against. */
function moduleFiles(paths: Set<string>, bases: string[], dotted: string): string[] {
  const rel = dotted.replace(/\./g, '/');
  const out: string[] = [];
  for (const b of bases) {
    const p = joinPath(b, rel);
    if (p === undefined) continue;
    for (const f of [`${p}.py`, `${p}.pyi`, `${p}/__init__.py`]) if (paths.has(f)) out.push(f);
  }
  return out;
}

/**
 * The code a Python project ships: the packages its wheel holds (declared in pyproject.toml, or found by
 * setuptools' automatic discovery), their Python sources only, and the modules its tests import (followed
 * through their own imports). Tests (by the runner's identity) and pytest's `conftest.py` plugins are
 * not shipped; bytecode, data files and anything the agent put beside the sources are not the fix.
 */
export async function pythonShipped(
  base: CommitTree,
  head: CommitTree,
  isTest: (p: string) => boolean,
): Promise<EcosystemView | undefined> {
  const hasPy = [...base.paths].some((p) => p.endsWith('.py'));
  if (!hasPy) return undefined;
  let pyproject: unknown;
  try {
    const t = await base.text('pyproject.toml');
    pyproject = t === undefined ? undefined : parseToml(t);
  } catch {
    pyproject = undefined;
  }
  const setup = { py: (await base.text('setup.py')) ?? '', cfg: (await base.text('setup.cfg')) ?? '' };
  const declared = declaredRoots(pyproject, head.paths, setup);
  const roots = (declared?.roots ?? discovered(base.paths)).map((r) => r.replace(/^\.\/?/, '').replace(/\/$/, ''));
  const inRoot = (p: string): boolean => roots.some((r) => r === '' || p === r || p.startsWith(`${r}/`) || p === `${r}.py`);
  const testInfra = (p: string): boolean => isTest(p) || /(?:^|\/)conftest\.py$/.test(p);
  const shipped = new Set<string>();
  for (const p of head.paths) if (PY_SOURCE.test(p) && inRoot(p) && !testInfra(p)) shipped.add(p);
  // The modules the tests import, resolved against the repository root, src/ and the roots' parents: only
  // when the manifests name no package (else a fixture module a test imports would pass for shipped code).
  const bases = [...new Set(['', 'src', ...roots.map(dirOf)])];
  let frontier = shipped.size ? [] : [...head.paths].filter((p) => testInfra(p) && p.endsWith('.py'));
  const seen = new Set<string>(frontier);
  while (frontier.length) {
    const texts = await head.read(frontier);
    const next: string[] = [];
    for (const [file, text] of texts) {
      for (const imp of await pyImports(text).catch(() => [])) {
        const from = imp.level ? [joinPath(dirOf(file), '../'.repeat(imp.level - 1)) ?? ''] : bases;
        const mods = [imp.module, ...imp.names.map((n) => (imp.module ? `${imp.module}.${n}` : n))].filter(Boolean);
        for (const m of mods)
          for (const f of moduleFiles(head.paths, from, m)) {
            if (!testInfra(f)) shipped.add(f);
            if (!seen.has(f)) {
              seen.add(f);
              next.push(f);
            }
          }
      }
    }
    frontier = next;
  }
  if (shipped.size === 0) return undefined;
  const how = declared?.how ?? 'setuptools’ automatic discovery';
  return {
    ecosystem: 'python',
    basis: `the sources of the packages a wheel would hold (${how}), or the modules the tests import when it names none`,
    shipped: (p) => shipped.has(p),
    manifests: ['pyproject.toml', 'setup.py', 'setup.cfg'].filter((m) => base.paths.has(m) || head.paths.has(m)),
  };
}
