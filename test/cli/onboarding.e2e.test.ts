/**
 * `proofpr init`, `doctor` and `config check` end to end (the built CLI as a child process) on temp
 * repositories: a Node project, a Python one, and one with a broken config (exit 2 naming the key).
 * The key/model check talks to a local stand-in for count_tokens on 127.0.0.1 (ANTHROPIC_BASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { tempDir } from '../kit/temp.js';
import { BIN, runCli } from '../kit/host-cli.js';
import { commitAll, gitIn, writeTree } from '../kit/host-repo.js';

const KEY = 'sk-test-doctor-key';

const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  runCli(args, { LOG_LEVEL: 'error', ...env }, { timeoutMs: 120_000 });

function repo(files: Record<string, string>): string {
  const dir = tempDir('proofpr-onboard-');
  writeTree(dir, files);
  return dir;
}

const NODE_PROJECT = {
  'package.json': JSON.stringify({ name: 'calc', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } }, null, 2),
  'src/add.js': 'export const add = (a, b) => a + b;\n',
  'test/add.test.js':
    "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../src/add.js';\ntest('adds', () => assert.strictEqual(add(1, 2), 3));\ntest('adds zero', () => assert.strictEqual(add(0, 2), 2));\n",
};

const PYTHON_PROJECT = {
  'calc.py': 'def add(a, b):\n    return a + b\n',
  'tests/test_calc.py':
    'import pytest\nfrom calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n\ndef test_neg():\n    assert add(-1, 1) == 0\n\ndef test_wrong():\n    assert add(2, 2) == 5\n',
  'pytest.ini': '[pytest]\npythonpath = .\n',
};

let api: Server;
let apiUrl: string;
const seen: Array<{ path: string; key: string | undefined; model: unknown }> = [];

beforeAll(async () => {
  api = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const parsed = JSON.parse(body || '{}') as { model?: unknown };
      seen.push({ path: req.url ?? '', key: req.headers['x-api-key'] as string | undefined, model: parsed.model });
      const send = (status: number, obj: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(obj));
      if (req.url !== '/v1/messages/count_tokens')
        return send(404, { type: 'error', error: { type: 'not_found_error', message: 'no route' } });
      if (req.headers['x-api-key'] !== KEY)
        return send(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
      if (parsed.model !== 'claude-known-1')
        return send(404, { type: 'error', error: { type: 'not_found_error', message: `model: ${String(parsed.model)}` } });
      send(200, { input_tokens: 8 });
    });
  });
  await new Promise<void>((ok) => api.listen(0, '127.0.0.1', () => ok()));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((ok) => api.close(() => ok()));
});

describe('proofpr init', () => {
  it('init - a Node project gets npm test, the schema line and a config that validates; --workflow writes the Action workflow', async () => {
    const dir = repo(NODE_PROJECT);
    writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: 'calc', lockfileVersion: 3, packages: {} }));
    const r = await cli(['init', '--repo', dir, '--workflow']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const text = readFileSync(join(dir, '.github/proofpr.yml'), 'utf8');
    expect(text.split('\n')[0]).toMatch(/^# yaml-language-server: \$schema=\S+proofpr\.schema\.json$/);
    expect(parseRepoConfig(text).test.command).toBe('npm test');
    const wf = parseYaml(readFileSync(join(dir, '.github/workflows/proofpr.yml'), 'utf8')) as {
      jobs: { fix: { steps: Array<{ uses?: string }> } };
    };
    expect(wf.jobs.fix.steps.map((s) => s.uses).filter(Boolean)).toEqual(
      expect.arrayContaining(['actions/checkout@v6', 'actions/setup-node@v6', 'proofpr/proofpr@v1']),
    );
    const again = await cli(['init', '--repo', dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('.github/proofpr.yml already exists');
  });

  it('init - a Python project gets its pytest command, and its workflow has no Node steps', async () => {
    const dir = repo(PYTHON_PROJECT);
    const r = await cli(['init', '--repo', dir, '--workflow']);
    expect(r.code).toBe(0);
    const config = parseRepoConfig(readFileSync(join(dir, '.github/proofpr.yml'), 'utf8'));
    expect(config.test.command).toMatch(/pytest/);
    expect(readFileSync(join(dir, '.github/workflows/proofpr.yml'), 'utf8')).not.toContain('setup-node');
  });
});

describe('proofpr config check', () => {
  it.each([
    {
      title: 'config check - a valid config exits 0 and says which test command applies',
      config: 'test:\n  command: npm test\nsweeps:\n  - { name: nightly, schedule: "0 3 * * *", prompt: "fix the failing tests" }\n',
      code: 0,
      stdout: ['.github/proofpr.yml is valid', 'test: `npm test` (configured'],
      stderr: [],
    },
    {
      title: 'config check - a broken config exits 2 naming every bad key',
      config:
        'max_turns: many\npermissions:\n  allow: ["Bash(npm test:*"]\nsweeps:\n  - { name: nightly, schedule: "0 3 * *", prompt: p }\ntest:\n  comand: npm test\n',
      code: 2,
      stdout: [],
      stderr: ['max_turns:', 'permissions.allow[0]:', 'sweeps[0].schedule:', 'test.comand: unknown key'],
    },
    {
      title: 'config check - no file means defaults, exit 0',
      config: undefined,
      code: 0,
      stdout: ['no .github/proofpr.yml: the defaults apply'],
      stderr: [],
    },
  ])('$title', async ({ config, code, stdout, stderr }) => {
    const dir = repo(config === undefined ? NODE_PROJECT : { ...NODE_PROJECT, '.github/proofpr.yml': config });
    const r = await cli(['config', 'check', '--repo', dir]);
    expect(r.code).toBe(code);
    for (const said of stdout) expect(r.stdout).toContain(said);
    for (const said of stderr) expect(r.stderr).toContain(said);
  });

  it('run - a malformed permission rule stops `run` at load with exit 2, before any worktree or branch', async () => {
    const dir = repo({ ...NODE_PROJECT, '.github/proofpr.yml': 'permissions:\n  deny: ["Bash(curl:*"]\n' });
    commitAll(dir);
    const r = await cli(['run', '--repo', dir, '--prompt', 'do it'], {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: apiUrl,
      PROOFPR_HOME: join(dir, '.proofpr-home'),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('permissions.deny[0]');
    const branches = gitIn(dir, 'branch', '--list');
    expect(branches.trim()).toBe('* main');
    expect(existsSync(join(dir, '.proofpr-home', 'worktrees'))).toBe(false);
  });
});

describe('proofpr doctor', () => {
  it('doctor - a Node project: machine, key and model (one count_tokens request), config, and the counts of a dry test run', async () => {
    const dir = repo({ ...NODE_PROJECT, '.github/proofpr.yml': 'model: claude-known-1\n' });
    commitAll(dir);
    const before = seen.length;
    const r = await cli(['doctor', '--repo', dir], { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: apiUrl });
    expect(r.stdout).toMatch(/^ok {4}node: v\d+/m);
    expect(r.stdout).toMatch(/^ok {4}git: git version/m);
    expect(r.stdout).toMatch(/^ok {4}config: \.github\/proofpr\.yml is valid/m);
    expect(r.stdout).toMatch(/^ok {4}api key and model: the key works and model claude-known-1 answers/m);
    expect(r.stdout).toMatch(/^ok {4}dry test run: `npm test` \(detected\) on [0-9a-f]{12}.*exit 0, 2 passed, 0 failed, 0 skipped/m);
    expect(r.stdout).not.toContain(KEY);
    expect(seen.slice(before)).toEqual([{ path: '/v1/messages/count_tokens', key: KEY, model: 'claude-known-1' }]);
    expect(r.code).toBe(0);
  });

  it('doctor - a Python project with a failing test: the counts show the red base (a warning, not a failure)', async () => {
    const dir = repo({ ...PYTHON_PROJECT, '.github/proofpr.yml': 'model: claude-known-1\n' });
    commitAll(dir);
    const r = await cli(['doctor', '--repo', dir], { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: apiUrl });
    expect(r.stdout).toMatch(/^warn {2}dry test run: `[^`]*pytest[^`]*` \(detected\).*exit 1, 2 passed, 1 failed/m);
    expect(r.code).toBe(0);
  });

  it('doctor - the dry test run registers no worktree in the repository it inspects, not even when doctor is killed mid-run', async () => {
    const token = `t${process.pid}${Date.now()}`;
    // The test waits in its TMPDIR (a harness run's own, in the doctor's run folder, visible from here) until told to go.
    const waiting = [
      "import { test } from 'node:test';",
      "import { existsSync, writeFileSync } from 'node:fs';",
      "import { tmpdir } from 'node:os';",
      "import { join } from 'node:path';",
      `test('waits', async () => {`,
      `  writeFileSync(join(tmpdir(), 'started-${token}'), '');`,
      `  while (!existsSync(join(tmpdir(), 'go-${token}'))) await new Promise((r) => setTimeout(r, 50));`,
      '});',
      '',
    ].join('\n');
    const dir = repo({ ...NODE_PROJECT, 'test/wait.test.js': waiting, '.github/proofpr.yml': 'model: claude-known-1\n' });
    commitAll(dir);
    const worktrees = () =>
      gitIn(dir, 'worktree', 'list', '--porcelain')
        .split('\n')
        .filter((l) => l.startsWith('worktree '));
    expect(worktrees()).toHaveLength(1);
    // The doctor's own temp folder (left behind when it is killed) goes in a kit temp folder, removed with it.
    const doctorTmp = tempDir('proofpr-onboard-tmp-');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      TMPDIR: doctorTmp,
      LOG_LEVEL: 'error',
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: apiUrl,
    };
    const child: ChildProcess = spawn(process.execPath, [BIN, 'doctor', '--repo', dir], { env, stdio: 'ignore' });
    const exited = new Promise<void>((ok) => child.on('exit', () => ok()));
    const runTmp = async (): Promise<string> => {
      for (;;) {
        for (const d of readdirSync(doctorTmp).filter((n) => n.startsWith('proofpr-doctor-'))) {
          const shared = join(doctorTmp, d, 'run', 'tmp');
          const own = existsSync(shared) ? readdirSync(shared).filter((n) => n.startsWith('harness-')) : [];
          for (const t of own.map((h) => join(shared, h, 'tmp'))) if (existsSync(join(t, `started-${token}`))) return t;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const t = await runTmp();
    try {
      expect(worktrees()).toHaveLength(1);
      child.kill('SIGKILL');
      await exited;
      expect(worktrees()).toHaveLength(1);
      expect(readdirSync(join(dir, '.git')).filter((n) => n === 'worktrees')).toEqual([]);
    } finally {
      writeFileSync(join(t, `go-${token}`), '');
    }
  });

  it('doctor - a wrong key, an unknown model and a broken config each fail with their fix; exit 2', async () => {
    const dir = repo({ ...NODE_PROJECT, '.github/proofpr.yml': 'model: claude-known-1\n' });
    commitAll(dir);
    const badKey = await cli(['doctor', '--repo', dir], { ANTHROPIC_API_KEY: 'sk-wrong', ANTHROPIC_BASE_URL: apiUrl });
    expect(badKey.stdout).toMatch(/^FAIL {2}api key and model: the key was refused: HTTP 401/m);
    expect(badKey.code).toBe(2);
    const badModel = await cli(['doctor', '--repo', dir], {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: apiUrl,
      PROOFPR_MODEL: 'claude-nope',
    });
    expect(badModel.stdout).toMatch(/^FAIL {2}api key and model: model claude-nope is not known: HTTP 404/m);
    expect(badModel.stdout).toContain('fix: set a valid model id (PROOFPR_MODEL)');
    writeFileSync(join(dir, '.github/proofpr.yml'), 'hooks:\n  PreToolUse: [{ matcher: "Edit(", command: "true" }]\n');
    const broken = await cli(['doctor', '--repo', dir], { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: apiUrl });
    expect(broken.stdout).toMatch(/^FAIL {2}config: invalid \.github\/proofpr\.yml/m);
    expect(broken.stdout).toContain('hooks.PreToolUse[0].matcher');
    expect(broken.code).toBe(2);
  });
});
