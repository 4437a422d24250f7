import { jsImports } from './imports.js';
import { dirOf, joinPath, normalizePath, type CommitTree } from './tree.js';
import type { EcosystemView } from './types.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const JS_CODE = /\.(?:[cm]?[jt]sx?)$/i;
const EXTS = ['.js', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts', '.jsx', '.json', '.node'];
/** What TypeScript's resolver also tries for a `.js` specifier written in a TS source (`./x.js` → `./x.ts`). */
const TS_FOR_JS: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'], '.jsx': ['.tsx'] };

function parseJson(text: string | undefined): Json | undefined {
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return isObject(v) ? v : undefined;
  } catch {
    // tsconfig.json allows comments and trailing commas.
    try {
      const v = JSON.parse(text.replace(/\/\*[\s\S]*?\*\/|(^|[^:"'])\/\/.*$/gm, '$1').replace(/,(\s*[}\]])/g, '$1')) as unknown;
      return isObject(v) ? v : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Every string leaf of a manifest field (`exports` conditions, `bin` maps, `browser` maps). */
function leaves(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) leaves(x, out);
  else if (isObject(v)) for (const x of Object.values(v)) leaves(x, out);
  return out;
}

/** `a/*` workspace globs as a matcher over package folders. */
function globMatcher(globs: string[]): (dir: string) => boolean {
  const res = globs.map((g) => {
    const body = g
      .replace(/^\.\//, '')
      .replace(/\/$/, '')
      .split('/')
      .map((part) =>
        part === '**'
          ? '.*'
          : part
              .replace(/[.+^${}()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '[^/]*')
              .replace(/\?/g, '[^/]'),
      )
      .join('/');
    return new RegExp(`^${body}$`);
  });
  return (dir) => res.some((r) => r.test(dir));
}

/** The file a specifier names in the tree: as written, with an extension added, as a folder's index, or a TS source for a `.js` name. */
export function resolveIn(paths: Set<string>, target: string): string | undefined {
  const p = normalizePath(target);
  if (p === undefined) return undefined;
  if (paths.has(p)) return p;
  for (const e of EXTS) if (paths.has(p + e)) return p + e;
  for (const e of EXTS) if (paths.has(`${p}/index${e}`)) return `${p}/index${e}`;
  const ext = /\.[cm]?jsx?$/.exec(p)?.[0];
  for (const t of ext ? (TS_FOR_JS[ext] ?? []) : []) if (paths.has(p.slice(0, -ext!.length) + t)) return p.slice(0, -ext!.length) + t;
  return undefined;
}

interface Pkg {
  dir: string;
  name?: string;
  entries: string[];
  /** tsconfig's outDir → rootDir, for entries that name build output the tree does not hold. */
  outToSrc?: { out: string; src: string };
  /** Bare specifiers the project maps itself: tsconfig `paths` (from `baseUrl`), package.json `imports` (`#x`). */
  aliases: Array<{ prefix: string; suffix: string; targets: string[] }>;
  /** Type declaration files package.json `files` names one by one. */
  declared: string[];
  baseUrl?: string;
}

async function readPackage(base: CommitTree, dir: string): Promise<Pkg | undefined> {
  const at = (p: string): string => (dir ? `${dir}/${p}` : p);
  const json = parseJson(await base.text(at('package.json')));
  if (!json) return undefined;
  const fields = ['main', 'module', 'browser', 'bin', 'exports', 'types', 'typings'].flatMap((k) => leaves(json[k]));
  if (typeof json.main !== 'string') fields.push('index.js');
  const ts = parseJson(await base.text(at('tsconfig.json')));
  const co = isObject(ts?.compilerOptions) ? ts.compilerOptions : {};
  const out = typeof co.outDir === 'string' ? normalizePath(co.outDir) : undefined;
  const src = typeof co.rootDir === 'string' ? (normalizePath(co.rootDir) ?? '') : 'src';
  const baseUrl = typeof co.baseUrl === 'string' ? (normalizePath(at(co.baseUrl)) ?? '') : undefined;
  const aliases: Pkg['aliases'] = [];
  const alias = (key: string, targets: string[], from: string): void => {
    const [prefix = '', suffix = ''] = key.split('*');
    aliases.push({ prefix, suffix, targets: targets.map((t) => joinPath(from, t) ?? t) });
  };
  if (isObject(co.paths)) for (const [k, v] of Object.entries(co.paths)) alias(k, leaves(v), baseUrl ?? dir);
  if (isObject(json.imports)) for (const [k, v] of Object.entries(json.imports)) alias(k, leaves(v), dir);
  const declared = leaves(json.files)
    .filter((f) => /\.d\.[cm]?ts$/.test(f) && !f.includes('*'))
    .map((f) => joinPath(dir, f) ?? f);
  return {
    dir,
    declared,
    ...(typeof json.name === 'string' ? { name: json.name } : {}),
    entries: fields.filter((f) => !f.includes('*')),
    ...(out ? { outToSrc: { out: at(out), src: at(src).replace(/\/$/, '') } } : {}),
    aliases,
    ...(baseUrl !== undefined ? { baseUrl } : {}),
  };
}

/** A bare specifier the project maps to its own files (tsconfig paths and baseUrl, package.json imports). */
function aliased(paths: Set<string>, pkgs: Pkg[], spec: string): string | undefined {
  for (const pkg of pkgs) {
    for (const a of pkg.aliases) {
      const star = a.prefix.length + a.suffix.length <= spec.length && spec.startsWith(a.prefix) && spec.endsWith(a.suffix);
      const exact = spec === a.prefix && a.suffix === '';
      if (!star && !exact) continue;
      const mid = spec.slice(a.prefix.length, spec.length - a.suffix.length);
      for (const t of a.targets) {
        const hit = resolveIn(paths, t.replace('*', mid));
        if (hit) return hit;
      }
    }
    if (pkg.baseUrl !== undefined) {
      const hit = resolveIn(paths, joinPath(pkg.baseUrl, spec) ?? '');
      if (hit) return hit;
    }
  }
  return undefined;
}

/** The package folders: the root and the workspaces it names (package.json `workspaces`). */
async function packages(base: CommitTree): Promise<Pkg[]> {
  const root = parseJson(await base.text('package.json'));
  if (!root) return [];
  const ws = root.workspaces;
  const globs = Array.isArray(ws) ? leaves(ws) : isObject(ws) ? leaves(ws.packages) : [];
  const match = globMatcher(globs);
  const dirs = [''];
  if (globs.length)
    for (const p of base.paths) if (p.endsWith('/package.json') && !p.includes('node_modules/') && match(dirOf(p))) dirs.push(dirOf(p));
  const out: Pkg[] = [];
  for (const d of dirs) {
    const pkg = await readPackage(base, d);
    if (pkg) out.push(pkg);
  }
  return out;
}

/** An entry that names build output: the source file it is built from (tsconfig outDir → rootDir, else builtFrom). */
function entryFile(paths: Set<string>, pkg: Pkg, entry: string, isTest: (p: string) => boolean): string | undefined {
  const p = joinPath(pkg.dir, entry);
  if (p === undefined) return undefined;
  const direct = resolveIn(paths, p);
  if (direct) return direct;
  if (pkg.outToSrc && p.startsWith(`${pkg.outToSrc.out}/`)) {
    const { out, src } = pkg.outToSrc;
    const rel = p.slice(out.length + 1).replace(/\.d\.[cm]?ts$/, '.js');
    const hit = resolveIn(paths, src ? `${src}/${rel}` : rel);
    if (hit) return hit;
  }
  return builtFrom(paths, p, isTest);
}

/**
 * A path the tree does not hold (build output: `dist/esm/index.js`), mapped back to the source with the
 * same module path once the output folders are dropped (`src/index.ts`): the longest tail of the path that
 * names a non-test source in the tree. Undefined when none or when that tail names several.
 */
export function builtFrom(paths: Set<string>, missing: string, isTest: (p: string) => boolean): string | undefined {
  const parts = missing
    .replace(/\.d\.[cm]?ts$/, '.js')
    .replace(/\.[cm]?[jt]sx?$/, '')
    .split('/');
  for (let k = 1; k < parts.length; k++) {
    const tail = `/${parts.slice(k).join('/')}`;
    const hits = [...paths].filter(
      (q) => JS_CODE.test(q) && !isTest(q) && !q.includes('node_modules/') && `/${q}`.replace(/\.[cm]?[jt]sx?$/, '').endsWith(tail),
    );
    if (hits.length === 1) return hits[0];
    if (hits.length > 1) return undefined;
  }
  return undefined;
}

/**
 * The code an npm project ships: what its manifests' entry points (`main`, `module`, `browser`, `bin`,
 * `exports`, `types`, `index.js` by default; in each workspace) load, followed through every literal
 * import and require; and the code its tests load (from a test file, only code files: a data file a test
 * imports is the test's, not the package's). Test files are never shipped code. Everything else the
 * tree holds (runner, transform and bundler configs of any name, data, fixtures, files no import reaches)
 * is not the fix.
 */
export async function npmShipped(base: CommitTree, head: CommitTree, isTest: (p: string) => boolean): Promise<EcosystemView | undefined> {
  const pkgs = await packages(base);
  if (pkgs.length === 0) return undefined;
  const byName = new Map(pkgs.filter((p) => p.name).map((p) => [p.name!, p]));
  const shipped = new Set<string>();
  const seen = new Set<string>();
  let frontier: Array<{ file: string; fromTest: boolean }> = [];
  for (const pkg of pkgs)
    for (const e of pkg.entries) {
      const f = entryFile(head.paths, pkg, e, isTest);
      if (f) frontier.push({ file: f, fromTest: false });
    }
  // The tests' imports say what ships only when the manifests say nothing (an app): else a fixture module a
  // test imports would pass for shipped code.
  const fromEntries = frontier.length > 0;
  if (!fromEntries)
    for (const p of head.paths)
      if (isTest(p) && JS_CODE.test(p) && !p.includes('node_modules/')) frontier.push({ file: p, fromTest: true });
  while (frontier.length) {
    const todo = frontier.filter((f) => !seen.has(`${f.fromTest}:${f.file}`));
    for (const f of todo) seen.add(`${f.fromTest}:${f.file}`);
    const texts = await head.read(todo.filter((f) => JS_CODE.test(f.file)).map((f) => f.file));
    const next: typeof frontier = [];
    for (const f of todo) {
      const test = isTest(f.file);
      if (!test) shipped.add(f.file);
      const text = texts.get(f.file);
      if (text === undefined) continue;
      const specs = await jsImports(f.file, text).catch(() => [] as string[]);
      for (const s of specs) {
        const rel = s.startsWith('.') ? joinPath(dirOf(f.file), s) : undefined;
        const target = s.startsWith('.')
          ? (resolveIn(head.paths, rel ?? '') ?? (rel && JS_CODE.test(rel) ? builtFrom(head.paths, rel, isTest) : undefined))
          : (selfReference(head.paths, byName, s, isTest) ?? aliased(head.paths, pkgs, s));
        if (!target || target.includes('node_modules/')) continue;
        // From a test, only code counts: the data a test reads is the test's.
        if (test && !JS_CODE.test(target)) continue;
        next.push({ file: target, fromTest: test });
      }
    }
    frontier = next;
  }
  // No entry point resolves and no test loads any code: the manifest says nothing about what ships.
  if (shipped.size === 0) return undefined;
  // Type declarations ship beside the code they describe (x.d.ts next to a shipped x.js), and those `files` names.
  for (const pkg of pkgs) for (const f of pkg.declared) if (head.paths.has(f)) shipped.add(f);
  for (const f of [...shipped]) {
    const d = f.replace(/\.([cm]?)js$/, '.d.$1ts');
    if (d !== f && head.paths.has(d)) shipped.add(d);
  }
  const names = pkgs.map((p) => `${p.dir || '.'}/package.json`).join(', ');
  return {
    ecosystem: 'npm',
    basis: fromEntries ? `what the entry points of ${names} load` : `what the tests load (${names} names no entry point)`,
    shipped: (p) => shipped.has(p),
    manifests: pkgs.map((p) => (p.dir ? `${p.dir}/package.json` : 'package.json')),
  };
}

/** A bare specifier naming one of the repository's own packages (`pkg` or `pkg/sub`). */
function selfReference(paths: Set<string>, byName: Map<string, Pkg>, spec: string, isTest: (p: string) => boolean): string | undefined {
  for (const [name, pkg] of byName) {
    if (spec !== name && !spec.startsWith(`${name}/`)) continue;
    const sub = spec.slice(name.length + 1);
    if (!sub) return pkg.entries.map((e) => entryFile(paths, pkg, e, isTest)).find(Boolean);
    return entryFile(paths, pkg, sub, isTest);
  }
  return undefined;
}
