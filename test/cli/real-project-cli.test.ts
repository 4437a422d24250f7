import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startFakeMessagesServer, type FakeMessagesServer } from '../fakes/fake-server.js';

const run = promisify(execFile);
const BIN = resolve('bin/proofpr.js');
/** jsdom/webidl-conversions at the parent of upstream 612790f7dbfceaba7ff76c8c69b7d7cbd9e2221a (branch main) and that commit's files (branch upstream-fix). */
const BUNDLE = resolve('test/fixtures/real/webidl-conversions.bundle');
// The upstream source change alone (its test change rewrites a shared test helper, which the assertions-kept gate refuses to judge).
const FIXED = ['lib/index.js'];

async function cli(args: string[], env: Record<string, string | undefined>) {
  try {
    const r = await run(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } as NodeJS.ProcessEnv, maxBuffer: 32 * 1024 * 1024 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** A fresh clone of the bundle: no .github/proofpr.yml. */
function freshClone(): { dir: string; work: string } {
  const work = realpathSync(mkdtempSync(join(tmpdir(), 'proofpr-real-')));
  const dir = join(work, 'webidl-conversions');
  execFileSync('git', ['clone', '-q', '--no-single-branch', BUNDLE, dir]);
  execFileSync('git', ['checkout', '-q', '-B', 'main', 'origin/main'], { cwd: dir });
  execFileSync('git', ['branch', '-q', 'upstream-fix', 'origin/upstream-fix'], { cwd: dir });
  return { dir, work };
}

describe('proofpr run on a real npm project with no config (the built CLI)', () => {
  let server: FakeMessagesServer;
  const contents = new Map<string, string>();
  beforeAll(async () => {
    const { dir } = freshClone();
    for (const f of FIXED) contents.set(f, execFileSync('git', ['show', `upstream-fix:${f}`], { cwd: dir, encoding: 'utf8' }));
    // The upstream fix, replayed through the tools: read each file, write its fixed content, run the tests.
    const steps = [...FIXED.flatMap((f) => [['Read', { file_path: f }], ['Write', { file_path: f, content: contents.get(f) }]]), ['Bash', { command: 'npm test' }]] as Array<[string, unknown]>;
    server = await startFakeMessagesServer((_b, n) => {
      const s = steps[n - 1];
      return s ? { content: [{ type: 'tool_use', id: `toolu_${n}`, name: s[0], input: s[1] }], stop_reason: 'tool_use' } : { content: [{ type: 'text', text: 'Added allowResizable.' }], stop_reason: 'end_turn' };
    });
  });
  afterAll(async () => server.close());

  it('cli run - detects `npm test` (scripts.test runs node --test) and verifies the upstream fix', async () => {
    const { dir, work } = freshClone();
    // Its devDependencies are lint and coverage tools the tests never load: an installed (here empty)
    // node_modules stands for the user's `npm ci`, so the detected install is skipped and no network is needed.
    mkdirSync(join(dir, 'node_modules'));
    const r = await cli(['run', '--repo', dir, '--prompt', 'Add allowResizable to the (Shared)ArrayBuffer conversions', '--out', join(work, 'run'), '--json'], {
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'sk-ant-test-0123456789',
      PROOFPR_HOME: join(work, 'home'),
    });
    expect(r.stderr).toMatch(/^sandbox: /m);
    expect(r.stderr).toContain('tests: npm test (detected: package.json scripts.test runs node:test');
    expect(r.stderr).toContain('setup: node_modules is linked from the checkout');
    expect(r.code).toBe(0);
    const evidence = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { verdict: string; test: unknown; baseline: { exitCode: number } };
    expect(evidence).toMatchObject({ verdict: 'verified', test: { command: 'npm test', source: 'detected' }, baseline: { exitCode: 0 } });
  }, 300_000);

  it('cli run - nothing to detect: exit 3 before any model request, naming test.command; a bwrap that cannot create namespaces is said first', async () => {
    const { work } = freshClone();
    const empty = join(work, 'notes');
    mkdirSync(empty);
    writeFileSync(join(empty, 'README.md'), '# notes\n');
    for (const a of [['init', '-q', '-b', 'main'], ['add', '-A'], ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'notes']]) execFileSync('git', a, { cwd: empty });
    // A bwrap that fails as on an AppArmor-restricted runner.
    const bin = join(work, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n');
    chmodSync(join(bin, 'bwrap'), 0o755);
    const before = server.requests.length;
    const r = await cli(['run', '--repo', empty, '--prompt', 'fix it', '--out', join(work, 'run2')], {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'sk-ant-test-0123456789',
      PROOFPR_HOME: join(work, 'home2'),
    });
    expect(r.code).toBe(3);
    expect(server.requests.length).toBe(before);
    expect(r.stderr).toContain('set test.command in .github/proofpr.yml');
    const lines = r.stderr.split('\n');
    const sandboxLine = lines.findIndex((l) => l.startsWith('sandbox: NONE: no sandbox: bubblewrap cannot create namespaces here (bwrap said: bwrap: setting up uid map: Permission denied)'));
    expect(sandboxLine).toBeGreaterThanOrEqual(0);
    expect(sandboxLine).toBeLessThan(lines.findIndex((l) => l.startsWith('UNVERIFIED')));
  });
});
