/**
 * `proofpr init` then `proofpr doctor` on projects whose package manager is not installed, and on test
 * commands that cannot start a program (exit 127). Real corepack, real shims (`corepack enable`), a local
 * registry serving a small pnpm package (no network): pinned with its hash, corepack checks the hash and
 * the dry run runs through corepack in the sandbox (its cache bound read-only) — ready; pinned without a
 * hash, the registry's metadata carries no signature, so corepack cannot verify the download: doctor's
 * package-manager check fails naming the signature and the fixes, and proofpr never skips the check
 * itself; the user's own COREPACK_INTEGRITY_KEYS=0 (the last fix named) reaches corepack.
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { delimiter, join } from 'node:path';
import { tempDir } from '../kit/temp.js';
import { runCli, type CliResult } from '../kit/host-cli.js';
import { COREPACK_TOOLS, commitAll, gitIn, pathWithout, writeTree } from '../kit/host-repo.js';

jest.setTimeout(120_000);

/** The fake pnpm: `--version`, and `test` running `node --test` as pnpm would run a `node --test` script. */
const PNPM_BIN = `#!/usr/bin/env node
const { spawnSync } = require('node:child_process');
const a = process.argv.slice(2);
if (a[0] === '--version') { console.log('9.0.0'); process.exit(0); }
if (a[0] === 'test') process.exit(spawnSync(process.execPath, ['--test'], { stdio: 'inherit' }).status ?? 1);
console.error('fake pnpm: ' + a.join(' ')); process.exit(1);
`;

let registry: Server;
let registryUrl: string;
let tarballHash: string;
let api: Server;
let apiUrl: string;
let work: string;
let noPackageManagers: string;

beforeAll(async () => {
  work = tempDir('proofpr-corepack-doctor-');
  const pkg = join(work, 'pkg');
  writeTree(pkg, {
    'package/package.json': JSON.stringify({ name: 'pnpm', version: '9.0.0', bin: { pnpm: 'bin/pnpm.cjs', pnpx: 'bin/pnpm.cjs' } }),
    'package/bin/pnpm.cjs': PNPM_BIN,
  });
  execFileSync('tar', ['czf', join(work, 'pnpm-9.0.0.tgz'), '-C', pkg, 'package']);
  const tgz = readFileSync(join(work, 'pnpm-9.0.0.tgz'));
  tarballHash = createHash('sha512').update(tgz).digest('hex');
  registry = createServer((req, res) => {
    if (req.url === '/pnpm/9.0.0') {
      // The metadata of a registry mirror that leaves `dist.signatures` out.
      const integrity = `sha512-${createHash('sha512').update(tgz).digest('base64')}`;
      res.end(JSON.stringify({ name: 'pnpm', version: '9.0.0', dist: { tarball: `${registryUrl}/pnpm/-/pnpm-9.0.0.tgz`, integrity } }));
    } else if (req.url === '/pnpm/-/pnpm-9.0.0.tgz') res.end(tgz);
    else res.writeHead(404).end('{}');
  });
  api = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 8 })));
  });
  for (const s of [registry, api]) await new Promise<void>((ok) => s.listen(0, '127.0.0.1', () => ok()));
  registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  // Not this repository's node_modules/.bin (npx puts it on the test's PATH): the projects bring their own.
  noPackageManagers = pathWithout(COREPACK_TOOLS, work, /node_modules[\\/]\.bin$/);
});

afterAll(async () => {
  for (const s of [registry, api]) await new Promise<void>((ok) => s.close(() => ok()));
});

/** PATH without pnpm and yarn, the local API and model, in the shared work folder. */
function cli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return runCli(
    args,
    {
      PATH: noPackageManagers,
      LOG_LEVEL: 'error',
      ANTHROPIC_API_KEY: 'sk-test-corepack-doctor',
      ANTHROPIC_BASE_URL: apiUrl,
      PROOFPR_MODEL: 'claude-known-1',
      ...env,
    },
    { cwd: work, timeoutMs: 110_000 },
  );
}

/** A committed pnpm project (lock file, packageManager pinned as given) with one node:test test. */
function pnpmProject(packageManager: string): string {
  const dir = join(tempDir('proofpr-corepack-repo-'), 'repo');
  writeTree(dir, {
    'package.json': JSON.stringify({ name: 'p', version: '1.0.0', packageManager, scripts: { test: 'node --test' } }, null, 2),
    'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
    'lib/one.js': 'exports.one = () => 1;\n',
    'test/one.test.js':
      "const test = require('node:test');\nconst assert = require('node:assert');\nconst { one } = require('../lib/one.js');\ntest('one', () => assert.strictEqual(one(), 1));\ntest('two', () => assert.strictEqual(one() + one(), 2));\n",
  });
  commitAll(dir);
  return dir;
}

/** init, commit what it wrote, doctor: as a new user would, no hand edit. */
async function initThenDoctor(dir: string, env: Record<string, string>): Promise<{ init: CliResult; doctor: CliResult; config: string }> {
  const init = await cli(['init', '--repo', dir], env);
  const config = readFileSync(join(dir, '.github', 'proofpr.yml'), 'utf8');
  gitIn(dir, 'add', '.github');
  gitIn(dir, 'commit', '-qm', 'config');
  return { init, doctor: await cli(['doctor', '--repo', dir], env), config };
}

const corepackEnv = (): Record<string, string> => ({
  COREPACK_HOME: join(tempDir('proofpr-corepack-home-'), 'c'),
  COREPACK_NPM_REGISTRY: registryUrl,
});

describe('init + doctor with a package manager that is not installed', () => {
  it('pnpm pinned with its hash, pnpm absent: corepack checks the hash, init writes pnpm test, doctor runs it through corepack in the sandbox: ready', async () => {
    const dir = pnpmProject(`pnpm@9.0.0+sha512.${tarballHash}`);
    const env = corepackEnv();
    const r = await initThenDoctor(dir, env);
    expect(r.init.code).toBe(0);
    expect(r.config).toContain('command: "pnpm test"');
    expect(r.doctor.stdout).toMatch(/^ok {4}package manager: pnpm is not installed, so it runs through corepack/m);
    expect(r.doctor.stdout).toMatch(/^ok {4}dry test run: `corepack pnpm test` .*2 passed, 0 failed/m);
    expect(r.doctor.stdout).toContain('\nready.\n');
    expect(r.doctor.code).toBe(0);
  });

  it('pinned without a hash, metadata without signatures: FAIL naming the signature and the fixes; nothing unverified is installed', async () => {
    const dir = pnpmProject('pnpm@9.0.0');
    const env = corepackEnv();
    const r = await initThenDoctor(dir, env);
    expect(r.config).toContain('command: "pnpm test"');
    const out = r.doctor.stdout;
    expect(out).toMatch(
      /^FAIL {2}package manager: pnpm is not installed and corepack could not provide it: corepack could not verify the signature of pnpm@9\.0\.0 \(`corepack pnpm --version`: Error: No compatible signature found in package metadata\)/m,
    );
    expect(out).toMatch(
      /fix: update corepack \(`npm install -g corepack@latest`\) or install pnpm@9\.0\.0 itself \(`npm install -g pnpm@9\.0\.0`\)/,
    );
    expect(out).toContain('"packageManager": "pnpm@9.0.0+sha512.<hash>"');
    expect(out).toContain('set COREPACK_INTEGRITY_KEYS=0 in the environment proofpr runs in (proofpr never turns the check off itself)');
    expect(out).not.toMatch(/fix: run `corepack enable`/);
    expect(out).toMatch(/^skip {2}dry test run/m);
    expect(r.doctor.code).toBe(2);
    expect(existsSync(join(env.COREPACK_HOME ?? '', 'v1', 'pnpm', '9.0.0'))).toBe(false);
  });

  it("corepack's shim on PATH (corepack enable) that cannot verify: the shim is probed, FAIL names it and the same fixes (not a dry run with unreadable counts)", async () => {
    const shims = tempDir('proofpr-corepack-shims-');
    execFileSync('corepack', ['enable', '--install-directory', shims, 'pnpm'], { env: { ...process.env, PATH: noPackageManagers } });
    const dir = pnpmProject('pnpm@9.0.0');
    const r = { doctor: await cli(['doctor', '--repo', dir], { ...corepackEnv(), PATH: `${shims}${delimiter}${noPackageManagers}` }) };
    expect(r.doctor.stdout).toMatch(
      /^FAIL {2}package manager: pnpm on PATH is corepack's shim \(`corepack enable`\), and it could not run: corepack could not verify the signature of pnpm@9\.0\.0 \(`pnpm --version`: Error: No compatible signature found/m,
    );
    expect(r.doctor.stdout).toMatch(/fix: update corepack/);
    expect(r.doctor.stdout).not.toMatch(/counts unknown/);
    expect(r.doctor.code).toBe(2);
  });

  it("the user's own COREPACK_INTEGRITY_KEYS=0 (the last fix named) reaches corepack, though the name looks secret: doctor (no config: it detects pnpm test) is ready", async () => {
    const dir = pnpmProject('pnpm@9.0.0');
    const r = { doctor: await cli(['doctor', '--repo', dir], { ...corepackEnv(), COREPACK_INTEGRITY_KEYS: '0' }) };
    expect(r.doctor.stdout).toMatch(/^ok {4}dry test run: `corepack pnpm test` .*2 passed, 0 failed/m);
    expect(r.doctor.code).toBe(0);
  });
});

describe('doctor names the program a test command could not start (exit 127)', () => {
  it("a dependency's program with no node_modules: names vitest and the project's install, not a reporter", async () => {
    const dir = join(tempDir('proofpr-127-node-'), 'repo');
    writeTree(dir, {
      'package.json': JSON.stringify(
        { name: 'v', version: '1.0.0', scripts: { test: 'vitest run' }, devDependencies: { vitest: '^3.0.0' } },
        null,
        2,
      ),
      'package-lock.json': JSON.stringify({ name: 'v', lockfileVersion: 3, requires: true, packages: {} }),
      'test/a.test.js': "import { test } from 'vitest';\ntest('a', () => {});\n",
    });
    commitAll(dir);
    const r = await initThenDoctor(dir, {});
    expect(r.config).toContain('command: "npm test"');
    expect(r.doctor.stdout).toMatch(/^FAIL {2}dry test run: `npm test` .*exit 127/m);
    expect(r.doctor.stdout).toMatch(
      /fix: `vitest` was not found \(exit 127\) while `npm test` ran: it comes from the project's dependencies and the repository has no node_modules: run `npm ci` in the repository first/,
    );
    expect(r.doctor.stdout).not.toMatch(/reporter/);
  });

  it('a program the machine lacks: names it and says to install it on this machine', async () => {
    const dir = join(tempDir('proofpr-127-tool-'), 'repo');
    writeTree(dir, { '.github/proofpr.yml': 'test:\n  command: "proofpr-absent-tool --run"\n', 'a.txt': 'a\n' });
    commitAll(dir);
    const r = await cli(['doctor', '--repo', dir], {});
    expect(r.stdout).toMatch(
      /fix: `proofpr-absent-tool` was not found \(exit 127\) while `proofpr-absent-tool --run` ran: install `proofpr-absent-tool` on this machine/,
    );
    expect(r.code).toBe(2);
  });
});
