/**
 * The real-repository benchmark (see bench/real/README.md). For every case of bench/real/cases.json:
 * materialize it, run the runner directly once on the fixed tree (its own count), then two passes of the
 * built CLI (`proofpr run`, sandbox as the machine allows) on a fresh clone of the parent bundle with a
 * replay model behind ANTHROPIC_BASE_URL: the upstream fix (source + test part, expected verified) and the
 * upstream test change alone (expected unverified). Prints a table and writes bench/results/real.json.
 * Usage: bench.mjs ROOT [case-id ...]
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startFakeMessagesServer } from '../../test/fakes/fake-server.js';
import { directCount, readManifest, type BenchCase } from './manifest.js';
import { materialize, type Materialized } from './materialize.js';
import { replayReply, replaySteps, type FileChange } from './replay.js';

interface TestRunLike {
  command: string;
  exitCode: number;
  startedAt: string;
  endedAt: string;
  counts?: { passed: number; failed: number; skipped: number; total: number };
}
interface EvidenceLike {
  verdict: string;
  reason: string;
  testRuns: TestRunLike[];
  baseline?: TestRunLike;
  sandbox?: string;
  sandboxReason?: string;
  test?: { command: string; source: string };
  usage: { turns: number };
}

export interface PassResult {
  verdict: string;
  exitCode: number;
  reason: string;
  wallMs: number;
  testMs: number;
  testRuns: number;
  total?: number;
  passed?: number;
  sandbox?: string;
  testSource?: string;
  turns: number;
}

const root = process.argv[2] ?? process.cwd();
const only = process.argv.slice(3);
const cacheRoot = join(root, 'bench', '.cache', 'real');
const bin = join(root, 'bin', 'proofpr.js');
const ms = (a: string, b: string) => Date.parse(b) - Date.parse(a);

function sh(cwd: string, command: string, env: NodeJS.ProcessEnv = process.env): { code: number; out: string; ms: number } {
  const t = performance.now();
  const r = spawnSync('bash', ['-c', command], { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { code: r.status ?? 1, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, ms: performance.now() - t };
}

/** node_modules for the case's npm packages, installed once into the cache. */
function ensureDeps(c: BenchCase): string | undefined {
  if (!c.npm) return undefined;
  const dir = join(cacheRoot, 'deps', c.id);
  const key = JSON.stringify(c.npm);
  const stamp = join(dir, '.installed');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === key) return join(dir, 'node_modules');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `bench-deps-${c.id}`, private: true, dependencies: c.npm }, null, 2));
  const r = sh(dir, 'npm install --no-audit --no-fund --loglevel=error');
  if (r.code !== 0) throw new Error(`${c.id}: npm install of ${key} failed:\n${r.out}`);
  writeFileSync(stamp, key);
  return join(dir, 'node_modules');
}

function cloneBase(m: Materialized, into: string, deps: string | undefined): string {
  execFileSync('git', ['clone', '-q', '--branch', 'main', m.bundle, into], { stdio: 'ignore' });
  // The user's installed dependencies, as after their own `npm ci`: a real folder (hard links into the cache, cheap).
  if (deps) execFileSync('cp', ['-al', deps, join(into, 'node_modules')]);
  return into;
}

function write(dir: string, changes: readonly FileChange[]): void {
  for (const c of changes) {
    const p = join(dir, c.path);
    if (c.after === undefined) rmSync(p, { force: true });
    else {
      mkdirSync(join(p, '..'), { recursive: true });
      writeFileSync(p, c.after);
    }
  }
}

async function cliRun(c: BenchCase, m: Materialized, changes: readonly FileChange[], deps: string | undefined, label: string): Promise<PassResult> {
  const work = realpathSync(mkdtempSync(join(tmpdir(), `proofpr-real-${c.id}-`)));
  try {
    const repo = cloneBase(m, join(work, c.repo.split('/')[1]!), deps);
    const steps = replaySteps(changes, c.agentTest);
    const server = await startFakeMessagesServer((_body, n) => replayReply(steps, n, `Applied the change for: ${c.title}`));
    const args = ['run', '--repo', repo, '--prompt', c.title, '--out', join(work, 'run'), '--json'];
    if (c.config) {
      writeFileSync(join(work, 'proofpr.yml'), c.config);
      args.push('--config', join(work, 'proofpr.yml'));
    }
    const t = performance.now();
    const child = spawn(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'sk-ant-bench-0000000000', PROOFPR_HOME: join(work, 'home') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    const exitCode = await new Promise<number>((res) => child.on('close', (code) => res(code ?? 1)));
    const wallMs = performance.now() - t;
    await server.close();
    const evPath = join(work, 'run', 'evidence.json');
    if (!existsSync(evPath)) throw new Error(`${c.id} ${label}: no evidence.json (exit ${exitCode}):\n${stderr}`);
    const ev = JSON.parse(readFileSync(evPath, 'utf8')) as EvidenceLike;
    if (process.env.BENCH_VERBOSE) process.stderr.write(`--- ${c.id} ${label}\n${stderr}\n`);
    // The baseline is also one of the test runs: count it once.
    const runs = [...(ev.baseline && !ev.testRuns.some((r) => r.startedAt === ev.baseline?.startedAt) ? [ev.baseline] : []), ...ev.testRuns];
    const last = ev.testRuns.at(-1);
    return {
      verdict: ev.verdict,
      exitCode,
      reason: ev.reason,
      wallMs,
      testMs: runs.reduce((s, r) => s + ms(r.startedAt, r.endedAt), 0),
      testRuns: runs.length,
      ...(last?.counts ? { total: last.counts.total, passed: last.counts.passed } : {}),
      ...(ev.sandbox ? { sandbox: ev.sandbox } : {}),
      ...(ev.test ? { testSource: ev.test.source } : {}),
      turns: ev.usage.turns,
    };
  } finally {
    if (process.env.BENCH_KEEP) process.stderr.write(`  kept ${work}\n`);
    else rmSync(work, { recursive: true, force: true });
  }
}

/** The runner itself on the fixed tree: its own count and its plain wall time. */
function direct(c: BenchCase, m: Materialized, deps: string | undefined): { count?: number; ms: number; code: number } {
  const work = realpathSync(mkdtempSync(join(tmpdir(), `proofpr-real-direct-${c.id}-`)));
  try {
    const repo = cloneBase(m, join(work, 'repo'), deps);
    write(repo, [...m.source, ...m.test]);
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env.FORCE_COLOR;
    const r = sh(repo, c.direct.command, env);
    // eslint-disable-next-line no-control-regex
    const count = directCount(r.out.replace(/\x1b\[[0-9;]*m/g, ''), c.direct.count);
    if (process.env.BENCH_VERBOSE) process.stderr.write(`--- ${c.id} direct (exit ${r.code})\n${r.out.slice(-2000)}\n`);
    return { ...(count !== undefined ? { count } : {}), ms: r.ms, code: r.code };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const manifest = readManifest(join(root, 'bench', 'real', 'cases.json'));
const cases = manifest.cases.filter((c) => only.length === 0 || only.includes(c.id));
const rows: Array<{ id: string; repo: string; fix: string; runner: string; direct: ReturnType<typeof direct>; fix_: PassResult; testOnly: PassResult }> = [];
for (const c of cases) {
  process.stderr.write(`${c.id} (${c.runner}, ${c.repo}@${c.fix.slice(0, 7)}) …\n`);
  const m = materialize(cacheRoot, c);
  const deps = ensureDeps(c);
  const d = direct(c, m, deps);
  const fixPass = await cliRun(c, m, [...m.source, ...m.test], deps, 'fix');
  const testPass = await cliRun(c, m, m.test, deps, 'test-only');
  rows.push({ id: c.id, repo: c.repo, fix: c.fix, runner: c.runner, direct: d, fix_: fixPass, testOnly: testPass });
  process.stderr.write(`  fix: ${fixPass.verdict} (${fixPass.reason}); test-only: ${testPass.verdict} (${testPass.reason})\n`);
}

const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(0)}%`);
const secs = (x: number) => `${(x / 1000).toFixed(1)} s`;
const over = (p: PassResult) => (p.wallMs - p.testMs) / p.testMs;
console.log('| case | runner | upstream | fix | test only | tests: proofpr / runner | fix run wall / test time | overhead |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  const counts = `${r.fix_.total ?? '?'} / ${r.direct.count ?? '?'}${r.fix_.total === r.direct.count ? '' : ' ✗'}`;
  console.log(`| ${r.id} | ${r.runner} | ${r.repo}@${r.fix.slice(0, 7)} | ${r.fix_.verdict} | ${r.testOnly.verdict} | ${counts} | ${secs(r.fix_.wallMs)} / ${secs(r.fix_.testMs)} (${r.fix_.testRuns} runs) | ${over(r.fix_).toFixed(2)}× |`);
}
const verified = rows.filter((r) => r.fix_.verdict === 'verified').length;
const refused = rows.filter((r) => r.testOnly.verdict === 'unverified').length;
const exact = rows.filter((r) => r.fix_.total !== undefined && r.fix_.total === r.direct.count).length;
const all = rows.flatMap((r) => [r.fix_, r.testOnly]);
const wall = all.reduce((s, p) => s + p.wallMs, 0);
const test = all.reduce((s, p) => s + p.testMs, 0);
const overheads = rows.map((r) => over(r.fix_)).sort((a, b) => a - b);
const summary = {
  cases: rows.length,
  runners: [...new Set(rows.map((r) => r.runner))].length,
  verifiedFixes: `${verified}/${rows.length}`,
  verifiedRate: rows.length ? verified / rows.length : 0,
  unverifiedTestOnly: `${refused}/${rows.length}`,
  unverifiedRate: rows.length ? refused / rows.length : 0,
  countsExact: `${exact}/${rows.length}`,
  overheadAll: +((wall - test) / test).toFixed(2),
  overheadFixMedian: +(overheads[Math.floor(overheads.length / 2)] ?? 0).toFixed(2),
  sandbox: [...new Set(all.map((p) => p.sandbox ?? 'unknown'))].join(', '),
};
console.log('');
console.log(`verified fixes: ${summary.verifiedFixes} (${pct(verified, rows.length)}), unverified test-only changes: ${summary.unverifiedTestOnly} (${pct(refused, rows.length)}), counts equal to the runner's own: ${summary.countsExact}`);
console.log(`harness overhead (run wall − test-command time) / test-command time: ${summary.overheadAll}× over all ${all.length} runs, median ${summary.overheadFixMedian}× per fix run; sandbox: ${summary.sandbox}; ${summary.runners} runners`);
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'real.json'), `${JSON.stringify({ summary, rows }, null, 2)}\n`);
