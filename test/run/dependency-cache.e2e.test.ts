import { afterAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { createScriptedModel, text, toolUse, type ScriptStep } from '../../src/model/scripted.js';
import { runTask } from '../../src/run/run-task.js';
import { dependencyCacheKey, ENTRY_FILE } from '../../src/workspace/dependency-cache.js';
import { gcDependencyCache } from '../../src/workspace/dependency-cache-gc.js';
import { gcCommand } from '../../src/hosts/cli/gc-command.js';
import { git } from '../e2e/helpers.js';
import { tempDir } from '../kit/temp.js';

const work = tempDir('proofpr-depcache-');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * A repository whose test needs an installed dependency: `dep` from a tarball in the repository
 * (a real `npm ci`, no registry: `.npmrc` says offline), a postinstall that counts installs inside
 * node_modules, and a bug to fix. Served as a bare mirror, as the App has it.
 */
function makeMirror(): string {
  const src = join(work, 'src');
  const dep = join(work, 'dep');
  mkdirSync(dep, { recursive: true });
  writeFileSync(join(dep, 'package.json'), '{"name":"dep","version":"1.0.0","main":"index.js"}\n');
  writeFileSync(join(dep, 'index.js'), 'exports.qty = (i) => i.qty ?? 1;\n');
  mkdirSync(join(src, 'deps'), { recursive: true });
  execFileSync('npm', ['pack', '--silent', '--pack-destination', join(src, 'deps')], { cwd: dep, stdio: 'pipe' });
  const files: Record<string, string> = {
    'package.json': JSON.stringify(
      {
        name: 'shop',
        version: '1.0.0',
        private: true,
        scripts: { test: 'node --test', postinstall: "node -e \"require('fs').appendFileSync('node_modules/.installs', 'x')\"" },
        dependencies: { dep: 'file:deps/dep-1.0.0.tgz' },
      },
      null,
      2,
    ),
    '.npmrc': 'offline=true\naudit=false\nfund=false\nupdate-notifier=false\n',
    '.gitignore': 'node_modules/\n',
    'src/total.js':
      "const { qty } = require('dep');\nexports.total = (items) => items.reduce((s, i) => s + i.price, 0);\nexports.qty = qty;\n",
    'test/total.test.js':
      "const { test } = require('node:test');\nconst assert = require('node:assert');\nconst { total } = require('../src/total');\ntest('total multiplies by qty', () => assert.strictEqual(total([{ price: 2, qty: 3 }]), 6));\n",
  };
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(dirname(join(src, p)), { recursive: true });
    writeFileSync(join(src, p), t);
  }
  const env = { ...process.env, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };
  execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--silent'], { cwd: src, env, stdio: 'pipe' });
  git(src, ['init', '-q', '-b', 'main']);
  git(src, ['add', '-A']);
  git(src, ['commit', '-q', '-m', 'initial']);
  const mirror = join(work, 'mirror.git');
  git(work, ['clone', '-q', '--bare', src, mirror]);
  return mirror;
}

const fix = toolUse('Edit', { file_path: 'src/total.js', old_string: 's + i.price, 0', new_string: 's + i.price * qty(i), 0' });
const steps = (): ScriptStep[] => [
  { content: [toolUse('Read', { file_path: 'src/total.js' })] },
  { content: [fix] },
  { content: [toolUse('Bash', { command: 'npm test' })] },
  { content: [text('Fixed.')] },
];

async function appRun(mirror: string, n: number) {
  return runTask({
    repoDir: mirror,
    branch: `proofpr/${n}-qty`,
    task: { kind: 'issue', issue: n, title: 'total ignores qty', body: 'total([{ price: 2, qty: 3 }]) is 2' },
    config: parseRepoConfig('permissions:\n  allow: ["Bash(npm test:*)"]\n'),
    model: createScriptedModel(steps()),
    modelId: 'claude-sonnet-5-5',
    mode: 'fix',
    runId: `dc${n}${Date.now()}`,
    runDir: join(work, 'home', 'runs', `r${n}`),
    worktreesDir: join(work, 'home', 'worktrees'),
  });
}

describe('dependency cache keyed by the lock file (the App: runs from a mirror)', () => {
  it('dependencyCacheKey - changes with the lock file, the command, the folder; not with the order of files', () => {
    const lock = Buffer.from('{"lockfileVersion":3}');
    const npmrc = Buffer.from('x');
    const inputs: Parameters<typeof dependencyCacheKey>[0] = {
      command: 'npm ci',
      folder: 'node_modules',
      files: [
        ['package-lock.json', lock],
        ['.npmrc', npmrc],
      ],
    };
    const k = dependencyCacheKey(inputs);
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    expect(dependencyCacheKey({ ...inputs, files: [...inputs.files].reverse() })).toBe(k);
    const changed: Array<Partial<typeof inputs>> = [
      {
        files: [
          ['package-lock.json', Buffer.from('{}')],
          ['.npmrc', npmrc],
        ],
      },
      { command: 'npm ci --ignore-scripts' },
      { folder: 'vendor' },
    ];
    for (const change of changed) expect(dependencyCacheKey({ ...inputs, ...change })).not.toBe(k);
  });

  it('runTask - the first run on a mirror runs the real `npm ci` and caches node_modules; the second links it and skips the install; both verified', async () => {
    const mirror = makeMirror();
    const cache = join(work, 'home', 'dep-cache');
    const first = await appRun(mirror, 1);
    expect(`${first.evidence.verdict}: ${first.evidence.reason}`).toMatch(/^verified/);
    expect(first.evidence.setup).toMatchObject({ command: 'npm ci', source: 'detected' });
    const entries = readdirSync(cache).filter((e) => !e.startsWith('.'));
    expect(entries).toHaveLength(1);
    const entry = join(cache, entries[0] ?? '');
    expect(readFileSync(join(entry, 'node_modules', '.installs'), 'utf8')).toBe('x');
    expect(JSON.parse(readFileSync(join(entry, ENTRY_FILE), 'utf8'))).toMatchObject({
      command: 'npm ci',
      folder: 'node_modules',
      files: ['package-lock.json', '.npmrc'],
    });

    const second = await appRun(mirror, 2);
    expect(`${second.evidence.verdict}: ${second.evidence.reason}`).toMatch(/^verified/);
    expect(second.evidence.setup?.command).toBeUndefined();
    expect(second.evidence.setup?.why).toContain('restored from the dependency cache');
    // The install ran once: the postinstall's counter in the cached node_modules says so.
    expect(readFileSync(join(entry, 'node_modules', '.installs'), 'utf8')).toBe('x');
    // The second run's test used the cached dependency (its final run passed with `dep` required).
    expect(second.evidence.testRuns.find((t) => t.kind === 'final')).toMatchObject({ exitCode: 0, counts: { passed: 1, failed: 0 } });
    // Nothing the agent or the tests did wrote into the entry (it is read-only in the sandbox); the
    // tool-cache folders are empty mount points for the run's own writable caches.
    expect(readdirSync(join(entry, 'node_modules')).sort()).toEqual([
      '.cache',
      '.installs',
      '.package-lock.json',
      '.vite',
      '.vite-temp',
      'dep',
    ]);
    for (const cache of ['.cache', '.vite', '.vite-temp']) expect(readdirSync(join(entry, 'node_modules', cache))).toEqual([]);
  }, 240_000);

  it('gcDependencyCache - removes unfinished and unused entries, then the least recently used beyond the size bound; keeps one in use', async () => {
    const dir = join(work, 'gc');
    const day = 86_400_000;
    const now = Date.now();
    const entry = (name: string, bytes: number, usedDaysAgo: number) => {
      mkdirSync(join(dir, name, 'node_modules'), { recursive: true });
      writeFileSync(
        join(dir, name, ENTRY_FILE),
        JSON.stringify({ key: name, command: 'npm ci', folder: 'node_modules', files: [], bytes, createdAt: '' }),
      );
      const t = new Date(now - usedDaysAgo * day);
      utimesSync(join(dir, name, ENTRY_FILE), t, t);
    };
    entry('old', 10, 40);
    entry('lru', 600, 5);
    entry('recent', 600, 1);
    entry('inuse', 600, 0);
    mkdirSync(join(dir, '.tmp-abandoned'), { recursive: true });
    utimesSync(join(dir, '.tmp-abandoned'), new Date(now - 2 * day), new Date(now - 2 * day));
    const dry = await gcDependencyCache(dir, { unusedSince: now - 30 * day, maxBytes: 1300, dryRun: true, now });
    expect(dry.removed.sort()).toEqual(['.tmp-abandoned', 'lru', 'old']);
    expect(existsSync(join(dir, 'old'))).toBe(true);
    const r = await gcDependencyCache(dir, { unusedSince: now - 30 * day, maxBytes: 1300, now });
    expect(r.removed.sort()).toEqual(['.tmp-abandoned', 'lru', 'old']);
    expect(readdirSync(dir).sort()).toEqual(['inuse', 'recent']);
    expect(r).toMatchObject({ keptBytes: 1200, keptEntries: 2 });
  });

  it('proofpr gc - trims $PROOFPR_HOME/dep-cache with the other state (--older-than-days, --dep-cache-max-mb)', async () => {
    const home = join(work, 'gc-home');
    const old = join(home, 'dep-cache', 'k1');
    mkdirSync(join(old, 'node_modules'), { recursive: true });
    writeFileSync(
      join(old, ENTRY_FILE),
      JSON.stringify({ key: 'k1', command: 'npm ci', folder: 'node_modules', files: [], bytes: 5, createdAt: '' }),
    );
    utimesSync(join(old, ENTRY_FILE), new Date(Date.now() - 40 * 86_400_000), new Date(Date.now() - 40 * 86_400_000));
    const lines: string[] = [];
    await expect(gcCommand({ depCacheMaxMb: 'lots' }, { PROOFPR_HOME: home }, (l) => lines.push(l))).rejects.toThrow(/--dep-cache-max-mb/);
    expect(await gcCommand({}, { PROOFPR_HOME: home }, (l) => lines.push(l))).toBe(0);
    expect(lines.join('')).toContain('dependency cache: removed 1 entry, 0 kept (0.0 MiB)');
    expect(existsSync(old)).toBe(false);
  });
});
