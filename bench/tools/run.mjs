// Tools bench: our Grep vs rg, our Glob vs fast-glob, registry dispatch overhead.
// Usage (from the project root): node bench/tools/run.mjs [--runs N]
// It bundles src/tools with esbuild into bench/.cache (no build step needed) and builds the fixture once.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import fg from 'fast-glob';
import { ensureFixture } from './fixture.mjs';

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 9;

async function loadTools() {
  const entry = join(projectRoot, 'bench', '.cache', 'tools-entry.ts');
  const out = join(projectRoot, 'bench', '.cache', 'tools-bundle.mjs');
  mkdirSync(dirname(entry), { recursive: true });
  writeFileSync(
    entry,
    [
      `export { createRegistry } from '../../src/tools/registry.ts';`,
      `export { defaultTools } from '../../src/tools/index.ts';`,
      `export { defineTool } from '../../src/tools/define-tool.ts';`,
      `export { FileState } from '../../src/tools/file-state.ts';`,
      `export { silentLogger } from '../../src/log.ts';`,
      `export { z } from 'zod';`,
    ].join('\n'),
  );
  await build({ entryPoints: [entry], outfile: out, bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'error' });
  return import(pathToFileURL(out).href);
}

function runProcess(cmd, args, cwd) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (d) => (bytes += d.length));
    child.on('close', () => resolve(bytes));
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Alternate ours and baseline run by run (same cache state, same machine noise), after one warm-up each. */
async function pair(ours, base) {
  await ours();
  await base();
  const a = [];
  const b = [];
  for (let i = 0; i < RUNS; i++) {
    let t = performance.now();
    await ours();
    a.push(performance.now() - t);
    t = performance.now();
    await base();
    b.push(performance.now() - t);
  }
  return { ours: median(a), base: median(b) };
}

const fixture = ensureFixture();
const t = await loadTools();
const registry = t.createRegistry(t.defaultTools());
const runDir = join(projectRoot, 'bench', '.cache', 'tools-run');
let n = 0;
const ctx = () => ({ root: fixture, runDir, callId: `bench_${n++}`, fileState: new t.FileState(), exec: async () => { throw new Error('no exec in bench'); }, signal: new AbortController().signal, logger: t.silentLogger });
async function tool(name, raw) {
  const p = registry.parse(name, raw);
  if (!p.ok) throw new Error(p.result.forModel);
  const r = await registry.execute(name, p.input, ctx());
  if (r.isError) throw new Error(r.forModel);
  return r;
}

const rows = [];
for (const [label, pattern] of [['Grep content, literal', 'createServer'], ['Grep content, regex', 'function\\s+\\w+Sync\\(']]) {
  const m = await pair(() => tool('Grep', { pattern, output_mode: 'content' }), () => runProcess('rg', ['-n', pattern], fixture));
  rows.push({ name: label, query: pattern, oursMs: m.ours, baselineMs: m.base, baseline: `rg -n '${pattern}'`, target: 1.3 });
}
{
  const m = await pair(() => tool('Glob', { pattern: '**/*.ts' }), () => fg('**/*.ts', { cwd: fixture }));
  rows.push({ name: 'Glob **/*.ts', query: '**/*.ts', oursMs: m.ours, baselineMs: m.base, baseline: "fast-glob('**/*.ts')", target: 1.5 });
}
{
  const noop = t.defineTool({
    name: 'Noop',
    description: 'x',
    input: registry.get('Grep').input,
    kind: 'search',
    execute: async (input) => ({ forModel: `matched ${input.pattern}\n`.repeat(20), isError: false, meta: { n: 1 } }),
  });
  const reg = t.createRegistry([noop]);
  const c = ctx();
  const raw = { pattern: 'foo', path: 'src', output_mode: 'content', '-i': 'true', '-C': '2', head_limit: '50' };
  const times = [];
  for (let i = 0; i < 20000; i++) {
    const s = performance.now();
    const p = reg.parse('Noop', raw);
    if (p.ok) await reg.execute('Noop', p.input, c);
    if (i >= 1000) times.push(performance.now() - s);
  }
  rows.push({ name: 'registry dispatch p50 (parse + execute + budget, no I/O)', oursMs: median(times), baselineMs: null, baseline: '-', target: '< 1 ms' });
}

const fmt = (x) => (x === null ? '-' : x.toFixed(3).padStart(9));
console.log(`fixture: ${fixture} (median of ${RUNS} runs each)\n`);
console.log(`${'measure'.padEnd(58)} ${'ours ms'.padStart(9)} ${'base ms'.padStart(9)}  ratio  target`);
for (const r of rows) {
  r.ratio = r.baselineMs ? r.oursMs / r.baselineMs : null;
  r.pass = typeof r.target === 'number' ? r.ratio <= r.target : r.oursMs < 1;
  console.log(`${r.name.padEnd(58)} ${fmt(r.oursMs)} ${fmt(r.baselineMs)}  ${r.ratio ? r.ratio.toFixed(2) : ' -  '}  ${typeof r.target === 'number' ? `<= ${r.target}x` : r.target} ${r.pass ? 'ok' : 'MISS'}`);
}
const files = Number((await new Promise((res) => { const c = spawn('git', ['ls-files'], { cwd: fixture }); let k = 0; c.stdout.on('data', (d) => (k += d.toString().split('\n').length - 1)); c.on('close', () => res(k)); })));
mkdirSync(join(projectRoot, 'bench', 'results'), { recursive: true });
writeFileSync(join(projectRoot, 'bench', 'results', 'tools.json'), JSON.stringify({ date: new Date().toISOString(), node: process.version, fixtureFiles: files, runs: RUNS, rows }, null, 2) + '\n');
console.log(`\nfixture files: ${files}; written bench/results/tools.json`);
