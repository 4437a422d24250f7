import fg from 'fast-glob';
import { posix } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { readText } from './read-text.js';

/** The parts of a package.json detection reads. */
export interface Manifest {
  name?: string;
  scripts: Record<string, string>;
  packageManager?: string;
  dependencies: Record<string, unknown>;
  devDependencies: Record<string, unknown>;
  workspaces?: unknown;
}

/** One package of a workspace monorepo: its folder (relative to the root, `/`-separated) and its manifest. */
export interface WorkspacePackage {
  dir: string;
  manifest: Manifest;
}

export interface Workspaces {
  /** Where the package globs were read: `package.json workspaces` or `pnpm-workspace.yaml`. */
  from: string;
  globs: string[];
  packages: WorkspacePackage[];
}

const record = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** package.json of `dir` (relative to root, '' for the root) as a Manifest; undefined when absent or not JSON. */
export async function readManifest(root: string, dir = ''): Promise<Manifest | undefined> {
  const text = await readText(root, dir ? posix.join(dir, 'package.json') : 'package.json');
  if (text === undefined) return undefined;
  let raw: Record<string, unknown>;
  try {
    raw = record(JSON.parse(text));
  } catch {
    return undefined;
  }
  const scripts = Object.fromEntries(Object.entries(record(raw.scripts)).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return {
    ...(typeof raw.name === 'string' ? { name: raw.name } : {}),
    scripts,
    ...(typeof raw.packageManager === 'string' ? { packageManager: raw.packageManager } : {}),
    dependencies: record(raw.dependencies),
    devDependencies: record(raw.devDependencies),
    ...(raw.workspaces !== undefined ? { workspaces: raw.workspaces } : {}),
  };
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** The package globs: pnpm-workspace.yaml `packages`, else package.json `workspaces` (an array, or yarn's `{ packages }`). */
async function workspaceGlobs(root: string, manifest: Manifest | undefined): Promise<{ from: string; globs: string[] } | undefined> {
  const pnpm = await readText(root, 'pnpm-workspace.yaml');
  if (pnpm !== undefined) {
    let doc: unknown;
    try {
      doc = parseYaml(pnpm);
    } catch {
      doc = undefined;
    }
    const globs = strings(record(doc).packages);
    if (globs.length) return { from: 'pnpm-workspace.yaml', globs };
  }
  const ws = manifest?.workspaces;
  const globs = Array.isArray(ws) ? strings(ws) : strings(record(ws).packages);
  return globs.length ? { from: 'package.json workspaces', globs } : undefined;
}

/**
 * The workspace packages of a monorepo root: the folders matched by its package globs (`!` globs
 * exclude) that hold a package.json, sorted. Undefined when the root declares no workspaces.
 */
export async function readWorkspaces(root: string, manifest?: Manifest): Promise<Workspaces | undefined> {
  const top = manifest ?? (await readManifest(root));
  const found = await workspaceGlobs(root, top);
  if (!found) return undefined;
  const positive = found.globs.filter((g) => !g.startsWith('!')).map((g) => g.replace(/^\.\//, '').replace(/\/+$/, ''));
  const negative = found.globs.filter((g) => g.startsWith('!')).map((g) => g.slice(1).replace(/^\.\//, '').replace(/\/+$/, ''));
  const dirs = await fg(positive, {
    cwd: root,
    onlyDirectories: true,
    ignore: ['**/node_modules/**', '**/.git/**', ...negative],
    deep: 6,
    followSymbolicLinks: false,
    suppressErrors: true,
  });
  const packages: WorkspacePackage[] = [];
  for (const dir of [...new Set(dirs)].sort()) {
    const m = await readManifest(root, dir);
    if (m) packages.push({ dir, manifest: m });
  }
  return { from: found.from, globs: found.globs, packages };
}

/** The workspace package a `-w` / `--filter` / `yarn workspace` selector names: by folder or by package name. */
export function findWorkspace(ws: Workspaces, selector: string): WorkspacePackage[] {
  const s = selector.replace(/^\.\//, '').replace(/\/+$/, '');
  const exact = ws.packages.filter((p) => p.dir === s || p.manifest.name === s);
  if (exact.length) return exact;
  // pnpm's --filter and yarn's foreach take globs of names (`@scope/*`) and `./folder` paths.
  if (/[*?]/.test(s)) {
    const re = new RegExp(
      `^${s
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')}$`,
    );
    return ws.packages.filter((p) => re.test(p.dir) || (p.manifest.name !== undefined && re.test(p.manifest.name)));
  }
  return [];
}
