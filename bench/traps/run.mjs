#!/usr/bin/env node
// The trap benchmark: bundles bench/traps/bench.ts with esbuild (dependencies stay external) and plays
// every case of the trap corpus (test/e2e/trap-corpus) through runTask, one after another.
// Usage: node bench/traps/run.mjs [--key NAME] [case-id-prefix ...]
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const out = join(root, 'node_modules', '.cache', 'proofpr-bench', 'traps.mjs');
await build({ bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'warning', entryPoints: [join(root, 'bench/traps/bench.ts')], outfile: out });
const res = spawnSync(process.execPath, [out, root, ...process.argv.slice(2)], { stdio: 'inherit', cwd: root });
process.exit(res.status ?? 1);
