#!/usr/bin/env node
// Bundles bench/scale/bench.ts and the synthetic worker (test/scale/synthetic-worker.ts) with esbuild
// (dependencies stay external) and runs the bench. Needs Redis at REDIS_URL (default redis://127.0.0.1:6379).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = join(root, 'node_modules', '.cache', 'proofpr-bench');
const opts = { bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'warning' };
await build({ ...opts, entryPoints: [join(root, 'bench/scale/bench.ts')], outfile: join(dir, 'scale.mjs') });
await build({ ...opts, entryPoints: [join(root, 'test/scale/synthetic-worker.ts')], outfile: join(dir, 'scale-worker.mjs') });
await build({ ...opts, entryPoints: [join(root, 'bench/scale/load-main.ts')], outfile: join(dir, 'scale-load.mjs') });
const res = spawnSync(process.execPath, [join(dir, 'scale.mjs'), root, join(dir, 'scale-worker.mjs'), join(dir, 'scale-load.mjs')], { stdio: 'inherit', cwd: root, env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'error' } });
process.exit(res.status ?? 1);
