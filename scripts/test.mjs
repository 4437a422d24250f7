#!/usr/bin/env node
// Runs jest (ESM mode), then prints the plain line "N passed, N failed" from jest's JSON results.
// Exits non-zero when any test failed, a suite failed to run, or no test ran at all.
// When REDIS_URL is unset, starts a private redis-server on a free port for the queue and scale tests
// (and stops it afterwards); without redis-server on PATH those tests fail with the command to install it.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(pathToFileURL(join(root, 'package.json')));
const jestBin = join(dirname(require.resolve('jest/package.json')), 'bin', 'jest.js');
// The CLI tests run the built CLI (bin/proofpr.js → build/): build first so they never test stale output.
const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
const built = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
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

const redis = process.env.REDIS_URL ? undefined : await privateRedis();
const out = join(mkdtempSync(join(tmpdir(), 'proofpr-jest-')), 'results.json');
const nodeOptions = [process.env.NODE_OPTIONS ?? '', '--experimental-vm-modules', '--no-warnings=ExperimentalWarning']
  .join(' ')
  .trim();
const res = spawnSync(process.execPath, [jestBin, '--json', `--outputFile=${out}`, ...process.argv.slice(2)], {
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
