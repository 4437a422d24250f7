/**
 * `proofpr init` then `proofpr doctor` agree (the built CLI as a child process, `npm run build` first):
 * what init writes is exactly what doctor's dry run then accepts, for a test script that chains steps
 * (`tsc --noEmit && jest`) and for an npm workspace monorepo (`npm test -w packages/x`); doctor's hint
 * names the runner the project really uses when counts cannot be read; a pnpm project on a machine
 * without pnpm (and a corepack that cannot download) fails doctor's package-manager check naming the fix.
 * jest and tsc come from this repository's node_modules (linked into the temp repositories).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { tempDir } from '../kit/temp.js';
import { runCli } from '../kit/host-cli.js';
import { COREPACK_TOOLS, commitAll, gitIn, pathWithout, writeTree } from '../kit/host-repo.js';
import { freePort } from '../kit/host-net.js';

const KEY = 'sk-test-init-doctor-key';
const MODEL = 'claude-known-1';

const cli = (args: string[], env: Record<string, string | undefined> = {}) => runCli(args, { LOG_LEVEL: 'error', ...env });

/** A committed temp repository; node_modules (ignored) links to this repository's, so jest and tsc run. */
function repo(files: Record<string, unknown>, linkModules = true): string {
  const dir = tempDir('proofpr-init-doctor-');
  writeTree(dir, { '.gitignore': 'node_modules\n', ...files });
  // A hard-linked copy where it can be made (the sandbox hides the temp folder, so a link to a checkout
  // of this repository under it would point at nothing there); else a link to the folder outside it.
  if (linkModules) {
    try {
      execFileSync('cp', ['-al', resolve('node_modules'), join(dir, 'node_modules')], { stdio: 'ignore' });
    } catch {
      rmSync(join(dir, 'node_modules'), { recursive: true, force: true });
      symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
    }
  }
  commitAll(dir);
  return dir;
}

const JEST_TESTS = {
  'src/add.js': 'module.exports = { add: (a, b) => a + b };\n',
  'test/add.test.js':
    "const { add } = require('../src/add');\ntest('adds', () => expect(add(1, 2)).toBe(3));\ntest('adds zero', () => expect(add(0, 2)).toBe(2));\n",
};

let api: Server;
let apiUrl: string;

beforeAll(async () => {
  api = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 8 })));
  });
  await new Promise<void>((ok) => api.listen(0, '127.0.0.1', () => ok()));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((ok) => api.close(() => ok()));
});

const doctorEnv = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: '', PROOFPR_MODEL: MODEL };
const doctor = (dir: string, env: Record<string, string> = {}) =>
  cli(['doctor', '--repo', dir], { ...doctorEnv, ANTHROPIC_BASE_URL: apiUrl, ...env });
const written = (dir: string): string => readFileSync(join(dir, '.github', 'proofpr.yml'), 'utf8');
/** Commits what init wrote, as a user would before doctor. */
function commitConfig(dir: string): void {
  gitIn(dir, 'add', '.github');
  gitIn(dir, 'commit', '-qm', 'config');
}

describe('proofpr init, then proofpr doctor', () => {
  // Needs the harness to run a composite test command as written (the lead's harness-run change):
  // before it, doctor's dry run refused `npm test` whose script is `tsc --noEmit && jest`.
  it('a test script that chains steps (tsc --noEmit && jest): init writes npm test, doctor says ready without a hand edit', async () => {
    const dir = repo({
      'package.json': { name: 'calc', version: '1.0.0', scripts: { test: 'tsc --noEmit && jest' }, jest: { testEnvironment: 'node' } },
      'tsconfig.json': {
        compilerOptions: { allowJs: true, checkJs: false, noEmit: true, skipLibCheck: true, types: [] },
        include: ['src'],
      },
      ...JEST_TESTS,
    });
    const init = await cli(['init', '--repo', dir]);
    expect(init.code).toBe(0);
    expect(written(dir)).toContain('command: "npm test"');
    expect(written(dir)).toContain('runs jest');
    commitConfig(dir);
    const r = await doctor(dir);
    expect(r.stdout).toMatch(/^ok {4}dry test run: `npm test` \(configured\) on [0-9a-f]{12}.*2 passed, 0 failed/m);
    expect(r.stdout).toContain('\nready.\n');
    expect(r.code).toBe(0);
  });

  // Also needs the harness change: `npm test -w packages/x` is not a script of the root package.json.
  it('an npm workspace monorepo: init writes npm test -w packages/calc (read against packages/calc/package.json), doctor says ready', async () => {
    const dir = repo({
      'package.json': { name: 'mono', private: true, workspaces: ['packages/*'] },
      'package-lock.json': '{"lockfileVersion": 3}',
      'packages/calc/package.json': { name: '@mono/calc', scripts: { test: 'jest' }, jest: { testEnvironment: 'node' } },
      'packages/docs/package.json': { name: '@mono/docs', scripts: { build: 'echo docs' } },
      ...Object.fromEntries(Object.entries(JEST_TESTS).map(([p, t]) => [`packages/calc/${p}`, t])),
    });
    const init = await cli(['init', '--repo', dir]);
    expect(init.code).toBe(0);
    expect(written(dir)).toContain('command: "npm test -w packages/calc"');
    expect(written(dir)).toMatch(/the root package.json has no scripts.test; the workspace packages\/calc has one/);
    commitConfig(dir);
    const r = await doctor(dir);
    expect(r.stdout).toMatch(/^ok {4}dry test run: `npm test -w packages\/calc` \(configured\).*2 passed, 0 failed/m);
    expect(r.code).toBe(0);
  });

  it('a pytest project with tests/requirements.txt and --cov in addopts: init writes the install; doctor names pytest-cov, the runner error and the install line', async () => {
    const dir = repo(
      {
        'pyproject.toml': '[project]\nname = "parse"\nversion = "1.0.0"\n\n[tool.pytest.ini_options]\naddopts = "--cov=parse"\n',
        'tests/requirements.txt': 'pytest\npytest-cov\n',
        'parse.py': 'def parse(s):\n    return int(s)\n',
        'tests/test_parse.py': 'from parse import parse\n\ndef test_parse():\n    assert parse("2") == 2\n',
      },
      false,
    );
    const init = await cli(['init', '--repo', dir]);
    expect(init.code).toBe(0);
    expect(written(dir)).toContain('command: "python3 -m pytest"');
    expect(written(dir)).toContain('setup:');
    expect(written(dir)).toContain('command: "python3 -m pip install -r tests/requirements.txt"');
    expect(written(dir)).toContain("the tests' dependencies are declared in tests/requirements.txt");
    commitConfig(dir);
    const r = await doctor(dir);
    expect(r.stdout).toMatch(/^\.{4} {2}dry test run: running `python3 -m pytest` once on HEAD/m);
    expect(r.stdout).toMatch(/^FAIL {2}dry test run: `python3 -m pytest` .*the runner said `.*unrecognized arguments: --cov=parse`/m);
    expect(r.stdout).toContain("pytest-cov (its --cov option is in pytest's addopts) is not installed here");
    expect(r.stdout).toContain('run `python3 -m pip install -r tests/requirements.txt` in this checkout');
    expect(r.stdout).not.toContain('no test runner was found');
  });

  it('counts that cannot be read: the fix names the runner the project uses (through npm run, else devDependencies), not another', async () => {
    const dir = repo(
      {
        'package.json': { name: 'p', scripts: { test: 'npm run unit', unit: 'node scripts/run.js' }, devDependencies: { vitest: '1.0.0' } },
        'scripts/run.js': "console.log('all good');\n",
      },
      false,
    );
    const r = await doctor(dir);
    expect(r.stdout).toMatch(/^FAIL {2}dry test run: `npm test` \(detected\).*counts unknown/m);
    const fix = /dry test run[^\n]*\n\s+fix: ([^\n]*)/.exec(r.stdout)?.[1] ?? '';
    expect(fix).toContain('probably runs vitest');
    expect(fix).toContain('package.json scripts.unit: node scripts/run.js');
    expect(fix).toContain("vitest's default reporter");
    expect(fix).not.toMatch(/npx jest/);
    expect(r.code).toBe(2);
  });

  it('pnpm-lock.yaml on a machine without pnpm, corepack unable to download: the package manager check fails naming corepack enable', async () => {
    const dir = repo(
      {
        'package.json': { name: 'p', scripts: { test: 'node --test' }, devDependencies: { x: '1' } },
        'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
      },
      false,
    );
    const work = tempDir('proofpr-nopnpm-');
    const PATH = pathWithout(COREPACK_TOOLS, work);
    const port = await freePort();
    const r = await doctor(dir, { PATH, COREPACK_HOME: join(work, 'corepack'), COREPACK_NPM_REGISTRY: `http://127.0.0.1:${port}` });
    expect(r.stdout).toMatch(/^FAIL {2}package manager: pnpm is not installed and corepack could not provide it/m);
    expect(r.stdout).toMatch(/fix: run `corepack enable`/);
    expect(r.stdout).toMatch(/^skip {2}dry test run/m);
    expect(r.code).toBe(2);
  });
});
