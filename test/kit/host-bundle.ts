/** One bundled script for a child process (esbuild, Node ESM, packages left external): a worker or `proofpr serve` from the sources. */
import { join } from 'node:path';
import { build } from 'esbuild';

const root = process.cwd();

/**
 * Bundles `entry` (a file, or TypeScript source whose imports resolve from the repository root) to
 * node_modules/.cache/<folder>/<name>-<pid>.mjs, next to the packages it imports; returns that path.
 */
export async function bundleScript(entry: { file: string } | { source: string }, folder: string, name: string): Promise<string> {
  const outfile = join(root, 'node_modules', '.cache', folder, `${name}-${process.pid}.mjs`);
  await build({
    ...('file' in entry
      ? { entryPoints: [entry.file] }
      : { stdin: { contents: entry.source, resolveDir: root, loader: 'ts' as const, sourcefile: `${name}-entry.ts` } }),
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}
