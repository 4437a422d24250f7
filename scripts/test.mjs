#!/usr/bin/env node
// Runs jest (ESM mode), then prints the plain line "N passed, N failed" from jest's JSON results.
// Exits non-zero when any test failed, a suite failed to run, or no test ran at all.
//   node scripts/test.mjs                      every tier (unit, integration, e2e): the README's test command
//   node scripts/test.mjs --tier unit          one tier (repeatable); other arguments go to jest
// When REDIS_URL is unset and a tier that needs it runs, starts a private redis-server on a free port for the
// queue and scale tests (and stops it afterwards); without redis-server on PATH those tests fail with the
// command to install it. Writes test-output/timings.json (seconds per test file) and prints the 10 slowest.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, mkdirSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const TIERS = ['unit', 'integration', 'e2e'];
/** `--tier NAME` (repeatable) picks tiers; every other argument goes to jest. */
function parseArgs(argv) {
  const tiers = [];
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = a === '--tier' ? argv[++i] : a.startsWith('--tier=') ? a.slice('--tier='.length) : undefined;
    if (value === undefined) {
      rest.push(a);
      continue;
    }
    if (!TIERS.includes(value)) {
      console.error(`--tier ${value}: the tiers are ${TIERS.join(', ')}`);
      process.exit(2);
    }
    tiers.push(value);
  }
  return { tiers: tiers.length ? tiers : TIERS, rest };
}
const { tiers, rest } = parseArgs(process.argv.slice(2));
const onlyUnit = tiers.length === 1 && tiers[0] === 'unit';
// Measured on 2 cores (docs/benchmarks.md): most integration and e2e time is spent waiting on child
// processes (git, runners, the built CLI), so one worker more than the cores keeps both busy.
const workers = rest.some((a) => a.startsWith('--maxWorkers') || a === '-w' || a.startsWith('-w=') || a === '--runInBand' || a === '-i')
  ? []
  : [`--maxWorkers=${process.env.PROOFPR_TEST_WORKERS ?? 3}`];
const require = createRequire(pathToFileURL(join(root, 'package.json')));
const jestBin = join(dirname(require.resolve('jest/package.json')), 'bin', 'jest.js');
// The CLI tests run the built CLI (bin/proofpr.js → build/): build first so they never test stale output.
// Unit tests import the sources only.
const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
const built = onlyUnit ? { status: 0 } : spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) {
  console.log('0 passed, 0 failed');
  console.error('the build failed: fix the TypeScript errors above');
  process.exit(1);
}
/** A free TCP port on 127.0.0.1. */
function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

/** Start `redis-server` on a free port; resolves to { url, stop } or undefined when it is not installed. */
async function privateRedis() {
  const which = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  if (which.error || which.status !== 0) {
    console.error('redis-server is not installed: the queue tests will fail (bash .ci/run installs it, or set REDIS_URL)');
    return undefined;
  }
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const ping = spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' });
    if (ping.stdout?.trim() === 'PONG') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  console.error(`started a private redis-server for the tests at ${url}`);
  return { url, stop: () => child.kill('SIGTERM') };
}

const redis = process.env.REDIS_URL || onlyUnit ? undefined : await privateRedis();
const out = join(mkdtempSync(join(tmpdir(), 'proofpr-jest-')), 'results.json');
const nodeOptions = [process.env.NODE_OPTIONS ?? '', '--experimental-vm-modules', '--no-warnings=ExperimentalWarning']
  .join(' ')
  .trim();
// Last: --selectProjects takes every word after it, so path patterns go before it.
const projects = tiers.length === TIERS.length ? [] : ['--selectProjects', ...tiers];
// --ci: a snapshot that is missing fails instead of being written (unless -u asks to update them).
const ci = rest.some((a) => a === '-u' || a.startsWith('--updateSnapshot')) ? [] : ['--ci'];
const res = spawnSync(process.execPath, [jestBin, '--json', `--outputFile=${out}`, ...ci, ...workers, ...rest, ...projects], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_OPTIONS: nodeOptions, ...(redis ? { REDIS_URL: redis.url } : {}) },
});
redis?.stop();
if (!existsSync(out)) {
  console.log('0 passed, 0 failed');
  console.error('jest wrote no results file (exit status ' + res.status + ')');
  process.exit(1);
}
const r = JSON.parse(readFileSync(out, 'utf8'));
reportTimings(r);
const passed = r.numPassedTests ?? 0;
const failed = (r.numFailedTests ?? 0);
const brokenSuites = r.numRuntimeErrorTestSuites ?? 0;
if (brokenSuites > 0) console.error(`${brokenSuites} test suite(s) failed to run`);
console.log(`${passed} passed, ${failed} failed`);
if (passed + failed === 0) {
  console.error('no test ran: that is a failure');
  process.exit(1);
}
process.exit(failed > 0 || brokenSuites > 0 || res.status !== 0 ? 1 : 0);

/** Seconds per test file into test-output/timings.json (a CI artifact); the 10 slowest on stderr. */
function reportTimings(results) {
  const files = (results.testResults ?? [])
    .map((t) => ({ file: t.name.slice(root.length + 1), seconds: Math.round((t.endTime - t.startTime) / 100) / 10, tests: t.assertionResults?.length ?? 0 }))
    .sort((a, b) => b.seconds - a.seconds);
  const wall = Math.round((Date.now() - results.startTime) / 1000);
  mkdirSync(join(root, 'test-output'), { recursive: true });
  writeFileSync(join(root, 'test-output', 'timings.json'), JSON.stringify({ tiers, wallSeconds: wall, files }, null, 2) + '\n');
  console.error(`\njest wall time ${wall} s over ${files.length} files (${tiers.join(', ')}); the 10 slowest files:`);
  for (const f of files.slice(0, 10)) console.error(`  ${String(f.seconds).padStart(6)} s  ${f.file}`);
}
