#!/usr/bin/env node
// Bundles bench/policy/bench.ts with esbuild (dependencies stay external) and runs it.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'node_modules', '.cache', 'proofpr-bench', 'policy.mjs');
await build({ entryPoints: [join(root, 'bench/policy/bench.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: out, logLevel: 'warning' });
const res = spawnSync(process.execPath, [out, root], { stdio: 'inherit', cwd: root });
process.exit(res.status ?? 1);
