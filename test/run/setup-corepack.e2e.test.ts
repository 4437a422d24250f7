/**
 * A lock file whose package manager is not installed (pnpm-lock.yaml on a machine with only Node): the
 * commands run through corepack when it can provide the tool; when it cannot (no download possible
 * here: an empty COREPACK_HOME and a registry on a closed local port), the run is a readiness stop —
 * `unverified`, exit 3, zero model requests — whose reason names the missing tool and the fix. Real
 * corepack, real child processes, the built CLI (`npm run build` first); nothing reaches the network.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeMessagesServer, type FakeMessagesServer } from '../fakes/fake-server.js';
import { checkPackageManagerTools, corepackToolsIn, onPath, throughCorepack } from '../../src/run/package-manager-tool.js';
import { resolveRunCommands } from '../../src/run/resolve-run-commands.js';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { tempDir } from '../kit/temp.js';
import { runCli } from '../kit/host-cli.js';
import { COREPACK_TOOLS, commitAll, pathWithout, writeTree } from '../kit/host-repo.js';
import { freePort } from '../kit/host-net.js';

/** PATH as the test process has it, minus pnpm and yarn. */
const pathWithoutPackageManagers = (work: string): string => pathWithout(COREPACK_TOOLS, work);

function pnpmRepo(): { dir: string; work: string } {
  const work = tempDir('proofpr-corepack-');
  const dir = join(work, 'repo');
  writeTree(dir, {
    'package.json': JSON.stringify({ name: 'p', version: '1.0.0', scripts: { test: 'node --test' }, devDependencies: { dep: '1.0.0' } }),
    'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
    'test/a.test.js': "require('node:test')('a', () => {});\n",
  });
  commitAll(dir);
  return { dir, work };
}

describe('package manager through corepack', () => {
  it('corepackToolsIn / throughCorepack: the first word of each simple command, assignments kept', () => {
    expect(corepackToolsIn('pnpm install --frozen-lockfile && CI=1 yarn build; npm test')).toEqual(['pnpm', 'yarn']);
    expect(corepackToolsIn('npx pnpm-check && echo yarn')).toEqual([]);
    expect(throughCorepack('pnpm install --frozen-lockfile', ['pnpm'])).toBe('corepack pnpm install --frozen-lockfile');
    expect(throughCorepack('tsc && CI=1 pnpm test || pnpm -r test', ['pnpm'])).toBe(
      'tsc && CI=1 corepack pnpm test || corepack pnpm -r test',
    );
    expect(throughCorepack('pnpmx test', ['pnpm'])).toBe('pnpmx test');
  });

  it('a present tool needs nothing; a missing one with a corepack that cannot download fails fast, naming corepack enable', async () => {
    const { dir, work } = pnpmRepo();
    const PATH = pathWithoutPackageManagers(work);
    expect(onPath('pnpm', PATH)).toBe(false);
    expect(onPath('corepack', PATH)).toBe(true); // Node ships it
    expect(await checkPackageManagerTools(['npm ci', 'npm test'], { cwd: dir, env: { PATH } })).toEqual({ ok: true });
    const env = {
      PATH,
      HOME: join(work, 'home'),
      COREPACK_HOME: join(work, 'corepack'),
      COREPACK_NPM_REGISTRY: `http://127.0.0.1:${await freePort()}`,
    };
    const started = Date.now();
    const r = await checkPackageManagerTools(['pnpm install --frozen-lockfile', 'pnpm test'], { cwd: dir, env, timeoutMs: 30_000 });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.tool).toBe('pnpm');
    expect(r.reason).toContain('pnpm is not installed and corepack could not provide it');
    expect(r.reason).toContain('corepack enable');
    expect(r.reason).toContain('setup.command');
    // No corepack at all: said without a probe.
    const bare = await checkPackageManagerTools(['pnpm test'], { cwd: dir, env: { PATH: join(work, 'nothing') } });
    expect(bare).toMatchObject({ ok: false, reason: expect.stringContaining('corepack is not on PATH') });
  });

  it('resolveRunCommands: corepack that works rewrites setup and test; one that does not leaves setup out and says notReady', async () => {
    const { dir } = pnpmRepo();
    const config = parseRepoConfig('');
    const works = await resolveRunCommands(dir, config, {
      checkTools: async () => ({ ok: true, corepack: { tools: ['pnpm'], why: 'pnpm is not installed, so it runs through corepack' } }),
    });
    expect(works.setup).toMatchObject({ command: 'corepack pnpm install --frozen-lockfile', source: 'detected' });
    expect(works.test?.command).toBe('corepack pnpm test');
    expect(works.test?.why).toContain('runs through corepack');
    expect(works.config.test.command).toBe('corepack pnpm test');
    expect(works.config.setup.command).toBe('corepack pnpm install --frozen-lockfile');
    const fails = await resolveRunCommands(dir, config, {
      checkTools: async () => ({ ok: false, tool: 'pnpm', reason: 'pnpm is missing' }),
    });
    expect(fails.notReady).toBe('pnpm is missing');
    expect(fails.setup).toBeUndefined();
    expect(fails.config.setup.command).toBeUndefined();
  });

  it('resolveRunCommands: pnpm missing but only the install needs it: setup left out, no readiness stop, the tests are tried', async () => {
    const { dir } = pnpmRepo();
    const r = await resolveRunCommands(dir, parseRepoConfig('test:\n  command: node --test test/\n'), {
      checkTools: async () => ({ ok: false, tool: 'pnpm', reason: 'pnpm is missing: corepack enable' }),
    });
    expect(r.notReady).toBeUndefined();
    expect(r.setup).toBeUndefined();
    expect(r.config.setup.command).toBeUndefined();
    expect(r.installUnavailable).toEqual({ command: 'pnpm install --frozen-lockfile', reason: 'pnpm is missing: corepack enable' });
    expect(r.setupSkipped).toContain('the tests are tried without `pnpm install --frozen-lockfile`');
    expect(r.test?.command).toBe('node --test test/');
  });

  it('resolveRunCommands: a detected pnpm install that is skipped (node_modules linked from the checkout) needs no pnpm: the test command alone is checked', async () => {
    const { dir, work } = pnpmRepo();
    mkdirSync(join(work, 'installed'));
    symlinkSync(join(work, 'installed'), join(dir, 'node_modules'), 'dir');
    const asked: Array<Array<string | undefined>> = [];
    const r = await resolveRunCommands(dir, parseRepoConfig('test:\n  command: npx vitest run\n'), {
      checkTools: async (commands) => {
        asked.push([...commands]);
        return commands.some((c) => c?.startsWith('pnpm')) ? { ok: false, tool: 'pnpm', reason: 'pnpm is missing' } : { ok: true };
      },
    });
    expect(asked).toEqual([[undefined, 'npx vitest run']]);
    expect(r.notReady).toBeUndefined();
    expect(r.setup).toBeUndefined();
    expect(r.setupSkipped).toContain('node_modules is linked from the checkout');
    expect(r.test?.command).toBe('npx vitest run');
  });
});

describe('proofpr run with pnpm-lock.yaml and no pnpm (the built CLI)', () => {
  let server: FakeMessagesServer;
  beforeAll(async () => {
    server = await startFakeMessagesServer(() => ({ content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' }));
  });
  afterAll(async () => {
    await server.close();
  });

  /** A pnpm repository whose configured test command is Node's own runner; `needsDep`: the test imports a dependency. */
  function pnpmNodeTestRepo(needsDep: boolean): { dir: string; work: string } {
    const work = tempDir('proofpr-corepack-try-');
    const dir = join(work, 'repo');
    writeTree(dir, {
      'package.json': JSON.stringify({ name: 'p', version: '1.0.0', devDependencies: { dep: '1.0.0' } }),
      'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
      '.github/proofpr.yml': 'test:\n  command: node --test test/\npermissions:\n  allow: ["Bash(node --test:*)"]\n',
      'src/add.js': 'module.exports = (a, b) => a - b;\n',
      'test/add.test.js':
        (needsDep ? "require('dep');\n" : '') +
        "const test = require('node:test');\nconst assert = require('node:assert');\nconst add = require('../src/add.js');\n" +
        "test('adds', () => assert.strictEqual(add(1, 2), 3));\n",
    });
    commitAll(dir);
    return { dir, work };
  }

  async function envFor(work: string, url: string): Promise<Record<string, string>> {
    return {
      PATH: pathWithoutPackageManagers(work),
      HOME: join(work, 'home'),
      COREPACK_HOME: join(work, 'corepack'),
      COREPACK_NPM_REGISTRY: `http://127.0.0.1:${await freePort()}`,
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: 'sk-ant-test-key-corepack-0123456789',
      PROOFPR_HOME: join(work, 'proofpr-home'),
      LOG_LEVEL: 'error',
    };
  }

  it('readiness by trying: the install cannot run, the tests need no dependency: the run goes on and is verified', async () => {
    const fixer = await startFakeMessagesServer((_body, n) => {
      const tool = (name: string, input: unknown) => ({
        content: [{ type: 'tool_use', id: `toolu_${n}`, name, input }],
        stop_reason: 'tool_use',
      });
      if (n === 1) return tool('Read', { file_path: 'src/add.js' });
      if (n === 2) return tool('Edit', { file_path: 'src/add.js', old_string: 'a - b', new_string: 'a + b' });
      if (n === 3) return tool('Bash', { command: 'node --test test/' });
      return { content: [{ type: 'text', text: 'Fixed add.' }], stop_reason: 'end_turn' };
    });
    try {
      const { dir, work } = pnpmNodeTestRepo(false);
      const out = join(work, 'run');
      const r = await runCli(['run', '--repo', dir, '--prompt', 'fix add', '--out', out, '--json'], await envFor(work, fixer.url), {
        timeoutMs: 150_000,
      });
      const evidence = JSON.parse(readFileSync(join(out, 'evidence.json'), 'utf8')) as {
        verdict: string;
        reason: string;
        setup?: { why: string };
        baseline?: { counts?: { failed: number } };
      };
      if (evidence.verdict !== 'verified') throw new Error(`not verified: ${evidence.reason}`);
      expect(r.code).toBe(0);
      expect(evidence.setup?.why).toContain('the tests are tried without `pnpm install --frozen-lockfile`');
      expect(evidence.baseline?.counts?.failed).toBe(1);
    } finally {
      await fixer.close();
    }
  }, 180_000);

  it('readiness by trying: the tests fail for a missing module the install would bring: not ready, naming the install and the fix', async () => {
    const { dir, work } = pnpmNodeTestRepo(true);
    const out = join(work, 'run');
    const r = await runCli(['run', '--repo', dir, '--prompt', 'fix add', '--out', out, '--json'], await envFor(work, server.url), {
      timeoutMs: 150_000,
    });
    expect(r.code).toBe(3);
    const evidence = JSON.parse(readFileSync(join(out, 'evidence.json'), 'utf8')) as { verdict: string; reason: string };
    expect(evidence.reason).toContain('needs the dependencies `pnpm install --frozen-lockfile` installs');
    expect(evidence.reason).toContain("Cannot find module 'dep'");
    expect(evidence.reason).toContain('corepack enable');
  }, 180_000);

  it('is a readiness stop: unverified, exit 3, zero model requests, the reason names pnpm and corepack enable', async () => {
    const { dir, work } = pnpmRepo();
    const env = {
      PATH: pathWithoutPackageManagers(work),
      HOME: join(work, 'home'),
      COREPACK_HOME: join(work, 'corepack'),
      COREPACK_NPM_REGISTRY: `http://127.0.0.1:${await freePort()}`,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'sk-ant-test-key-corepack-0123456789',
      PROOFPR_HOME: join(work, 'proofpr-home'),
      LOG_LEVEL: 'error',
    };
    const out = join(work, 'run');
    const r = await runCli(['run', '--repo', dir, '--prompt', 'fix it', '--out', out, '--json'], env, { timeoutMs: 120_000 });
    expect(server.requests).toHaveLength(0);
    expect(r.code).toBe(3);
    const evidence = JSON.parse(readFileSync(join(out, 'evidence.json'), 'utf8')) as { verdict: string; reason: string };
    expect(evidence.verdict).toBe('unverified');
    expect(evidence.reason).toContain('not ready');
    expect(evidence.reason).toContain('pnpm is not installed');
    expect(evidence.reason).toContain('corepack enable');
    expect(evidence.reason).not.toContain('internal error');
  });
});
