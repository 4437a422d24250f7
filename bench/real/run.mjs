#!/usr/bin/env node
// The real-repository benchmark: bundles bench/real/bench.ts with esbuild (dependencies stay external),
// builds the CLI when build/ is missing, and runs every case of bench/real/cases.json (or the ids given).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
if (!existsSync(join(root, 'build', 'hosts', 'cli', 'main.js'))) {
  const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const out = join(root, 'node_modules', '.cache', 'proofpr-bench', 'real.mjs');
await build({ bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'warning', entryPoints: [join(root, 'bench/real/bench.ts')], outfile: out });
const res = spawnSync(process.execPath, [out, root, ...process.argv.slice(2)], { stdio: 'inherit', cwd: root });
process.exit(res.status ?? 1);
