/**
 * The published package works on its own: `npm pack` the project, install the tarball into an empty folder
 * with `--omit=optional` (so better-sqlite3, the one native module, is absent), then run `proofpr --version`
 * and `proofpr demo` from there. The install uses `--prefer-offline`: packages come from the local npm
 * cache when they are there, else from the configured registry (the test needs one or the other).
 * `npm pack --ignore-scripts` packs the current build/ (scripts/test.mjs builds before the suite).
 */
import { describe, expect, test, beforeAll, afterAll } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../kit/temp.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let dir: string;
let files: string[];
let app: string;

/** A preload that makes Node refuse every connection except to this machine (loopback or a local socket). */
function offlineGuard(folder: string): string {
  const file = join(folder, 'offline-guard.cjs');
  writeFileSync(
    file,
    [
      "const net = require('node:net');",
      'const connect = net.Socket.prototype.connect;',
      'net.Socket.prototype.connect = function (...args) {',
      '  const first = Array.isArray(args[0]) ? args[0][0] : args[0];',
      "  const o = first !== null && typeof first === 'object' ? first : { port: first, host: args[1] };",
      "  const host = String(o.host ?? 'localhost');",
      "  if (!o.path && !/^(localhost|127\\.|::1$|\\[::1\\])/.test(host)) throw new Error('offline: no connection to ' + host);",
      '  return connect.apply(this, args);',
      '};',
      '',
    ].join('\n'),
  );
  return file;
}

function bin(): string {
  return join(app, 'node_modules', '.bin', 'proofpr');
}

beforeAll(() => {
  dir = tempDir('proofpr-pack-');
  const packed = JSON.parse(
    execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  ) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const first = packed[0]!;
  files = first.files.map((f) => f.path);
  app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'empty-folder', version: '1.0.0', private: true }));
  const tgz = join(
    dir,
    readdirSync(dir).find((f) => f.endsWith('.tgz'))!,
  );
  const res = spawnSync(npm, ['install', tgz, '--omit=optional', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: app,
    encoding: 'utf8',
    timeout: 280_000,
  });
  if (res.status !== 0) throw new Error(`npm install of the tarball failed (${res.status}): ${res.stderr}`);
}, 300_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  test('installs no Bedrock or Vertex SDK unless asked (optional peer dependencies)', () => {
    const mods = join(app, 'node_modules');
    expect(existsSync(join(mods, '@anthropic-ai', 'bedrock-sdk'))).toBe(false);
    expect(existsSync(join(mods, '@anthropic-ai', 'vertex-sdk'))).toBe(false);
    expect(existsSync(join(mods, '@aws-sdk'))).toBe(false);
    expect(existsSync(join(mods, 'google-auth-library'))).toBe(false);
  });

  test('ships the build, the launcher, docs and the demo; no Action bundle (the CLI never loads dist/), tests or benches', () => {
    for (const f of [
      'bin/proofpr.js',
      'build/hosts/cli/main.js',
      'docs/proofpr.schema.json',
      'examples/demo/session.jsonl',
      'examples/workflows/proofpr-comment.yml',
      'app.yml',
      'action.yml',
      'LICENSE',
    ]) {
      expect(files).toContain(f);
    }
    expect(
      files.filter(
        (f) =>
          f.startsWith('test/') ||
          f.startsWith('bench/') ||
          f.startsWith('src/') ||
          f.startsWith('scripts/') ||
          f.startsWith('dist/') ||
          f.endsWith('.map'),
      ),
    ).toEqual([]);
  });

  test('installs without the optional native module', () => {
    expect(existsSync(join(app, 'node_modules', 'proofpr'))).toBe(true);
    expect(existsSync(join(app, 'node_modules', 'better-sqlite3'))).toBe(false);
  });

  test('proofpr --version prints the package version', () => {
    const version = (
      JSON.parse(execFileSync('node', ['-p', 'JSON.stringify(require("./package.json"))'], { cwd: root, encoding: 'utf8' })) as {
        version: string;
      }
    ).version;
    const out = execFileSync(bin(), ['--version'], { cwd: app, encoding: 'utf8' });
    expect(out.trim()).toBe(version);
  });

  test('proofpr demo runs to a verified commit from the installed package, offline', () => {
    // Offline: every Node process of the demo refuses any connection that is not to this machine.
    const env = { ...process.env, ANTHROPIC_API_KEY: '', NODE_OPTIONS: `--require ${offlineGuard(dir)}` };
    const probe = spawnSync(
      process.execPath,
      [
        '-e',
        "fetch('https://example.com').then(() => process.exit(0), (e) => { console.log(String(e.cause?.message ?? e.message)); process.exit(3); })",
      ],
      {
        encoding: 'utf8',
        env,
      },
    );
    expect({ status: probe.status, out: probe.stdout.trim() }).toEqual({ status: 3, out: 'offline: no connection to example.com' });
    const res = spawnSync(bin(), ['demo'], { cwd: app, encoding: 'utf8', timeout: 120_000, env });
    expect(res.stdout).toContain('verdict: verified (exit code 0)');
    expect(res.status).toBe(0);
  }, 150_000);

  test('serve without better-sqlite3 exits 2 naming the fix', () => {
    const res = spawnSync(bin(), ['serve'], {
      cwd: app,
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: app,
        APP_ID: '1',
        PRIVATE_KEY: '-----BEGIN RSA PRIVATE KEY-----\nx\n-----END RSA PRIVATE KEY-----',
        WEBHOOK_SECRET: 's',
        ANTHROPIC_API_KEY: 'k',
        PORT: '0',
        PROOFPR_HOME: join(app, '.proofpr'),
        PROOFPR_SWEEP_SCHEDULER: 'off',
      },
    });
    expect(res.stderr).toContain('npm install better-sqlite3@12');
    expect(res.stderr).toContain('REDIS_URL');
    expect(res.status).toBe(2);
  });
});
