import { lstat, readdir, realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * The folders a dependency folder's entries link to outside it, so the sandbox can show them read-only:
 * a `node_modules` whose packages are symlinks (npm/yarn `link:`, workspaces, a store elsewhere) is
 * useless when the links' targets sit under a hidden path such as the temp folder. A target inside
 * another `node_modules` shows that whole folder (Node resolves a package's own dependencies from
 * its real path, next to it); any other target shows itself only.
 */
export async function dependencyLinkTargets(dir: string): Promise<string[]> {
  const root = await realpath(dir).catch(() => undefined);
  if (!root) return [];
  const out = new Set<string>();
  const visit = async (folder: string, depth: number): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const abs = join(folder, e.name);
      if (e.isDirectory() && depth === 0 && e.name.startsWith('@')) await visit(abs, 1);
      if (!(await lstat(abs).catch(() => undefined))?.isSymbolicLink()) continue;
      const real = await realpath(abs).catch(() => undefined);
      if (!real || real === root || real.startsWith(`${root}/`)) continue;
      out.add(packageFolderOf(real) ?? real);
    }
  };
  await visit(root, 0);
  return [...out];
}

/** `/x/node_modules/pkg` or `/x/node_modules/@s/pkg` → `/x/node_modules`; otherwise undefined. */
function packageFolderOf(real: string): string | undefined {
  const parent = dirname(real);
  if (basename(parent) === 'node_modules') return parent;
  if (basename(parent).startsWith('@') && basename(dirname(parent)) === 'node_modules') return dirname(parent);
  return undefined;
}
