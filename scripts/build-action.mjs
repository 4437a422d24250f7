#!/usr/bin/env node
/**
 * Bundles the Action (src/hosts/action/run.ts) into one ESM file, dist/index.js, plus the
 * tree-sitter wasm files the bash permission parser and the test-integrity gate load at runtime
 * (found next to the bundle).
 * The output is deterministic: CI rebuilds it and fails when the committed dist/ differs.
 *   node scripts/build-action.mjs [--outdir DIR]
 */
import { build } from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const at = args.indexOf('--outdir');
const outdir = resolve(at >= 0 && args[at + 1] ? args[at + 1] : join(root, 'dist'));
const require = createRequire(join(root, 'package.json'));

mkdirSync(outdir, { recursive: true });
await build({
  absWorkingDir: root,
  entryPoints: [join(root, 'src/hosts/action/run.ts')],
  outfile: join(outdir, 'index.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // CommonJS dependencies inside an ESM bundle still call require() for Node built-ins.
  banner: { js: "import { createRequire as __proofprCreateRequire } from 'node:module';\nconst require = __proofprCreateRequire(import.meta.url);" },
  // Native and server-only packages are never on the Action's path; fail the build if one sneaks in.
  external: ['better-sqlite3', 'bullmq', 'ioredis', 'probot'],
  legalComments: 'none',
  sourcemap: false,
  logLevel: 'warning',
});
copyFileSync(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'), join(outdir, 'tree-sitter-bash.wasm'));
copyFileSync(require.resolve('web-tree-sitter/tree-sitter.wasm'), join(outdir, 'tree-sitter.wasm'));
// The test-integrity gate parses test code with these grammars (src/agent/verification/integrity/parse.ts).
for (const w of ['tree-sitter-javascript/tree-sitter-javascript.wasm', 'tree-sitter-typescript/tree-sitter-typescript.wasm', 'tree-sitter-typescript/tree-sitter-tsx.wasm', 'tree-sitter-python/tree-sitter-python.wasm']) {
  copyFileSync(require.resolve(w), join(outdir, w.split('/').pop()));
}
// dist/ is an ES module folder whatever the package.json above it says.
await import('node:fs').then((fs) => fs.writeFileSync(join(outdir, 'package.json'), '{ "type": "module" }\n'));
console.log(`built ${join(outdir, 'index.js')}`);
