import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeMessagesServer, type FakeMessagesServer } from '../fakes/fake-server.js';
import { tempDir } from '../kit/temp.js';
import { runCli } from '../kit/host-cli.js';
import { commitAll, writeTree } from '../kit/host-repo.js';

// A small npm project laid out as published ones are (package.json with scripts.test running node:test,
// a package-lock.json, lib/, test/ with a helper file that holds no tests), built here rather than copied
// from another project: branch `main` has the bug, branch `upstream-fix` the fix of lib/index.js.
const FIXED = ['lib/index.js'];
const PROJECT: Record<string, string> = {
  'package.json': `${JSON.stringify({ name: 'range-clamp', version: '1.2.0', description: 'Clamp numbers into ranges', main: 'lib/index.js', scripts: { test: 'node --test test/' }, license: 'MIT', devDependencies: { 'left-pad': '^1.3.0' } }, null, 2)}\n`,
  'package-lock.json': `${JSON.stringify({ name: 'range-clamp', version: '1.2.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'range-clamp', version: '1.2.0', license: 'MIT', devDependencies: { 'left-pad': '^1.3.0' } }, 'node_modules/left-pad': { version: '1.3.0', dev: true, license: 'WTFPL' } } }, null, 2)}\n`,
  '.gitignore': 'node_modules/\ncoverage/\n',
  'README.md': '# range-clamp\n\nClamp numbers into ranges.\n',
  'lib/index.js':
    "'use strict';\n\nfunction clamp(value, min, max) {\n  if (min > max) throw new RangeError('min must not exceed max');\n  return Math.min(Math.max(value, min), max);\n}\n\nfunction clampAll(values, min, max) {\n  return values.map((v) => clamp(v, min, max));\n}\n\nmodule.exports = { clamp, clampAll };\n",
  'test/helpers.js': "'use strict';\n\nexports.cases = (fn, rows) => rows.map(([args, expected]) => [fn(...args), expected]);\n",
  'test/clamp.test.js':
    "'use strict';\n\nconst test = require('node:test');\nconst assert = require('node:assert/strict');\nconst { clamp, clampAll } = require('../lib/index.js');\nconst { cases } = require('./helpers.js');\n\ntest('clamps below the range', () => assert.equal(clamp(-5, 0, 10), 0));\ntest('clamps above the range', () => assert.equal(clamp(50, 0, 10), 10));\ntest('keeps values inside', () => {\n  for (const [got, want] of cases(clamp, [[[3, 0, 10], 3], [[0, 0, 10], 0]])) assert.equal(got, want);\n});\ntest('refuses an inverted range', () => assert.throws(() => clamp(1, 5, 2), RangeError));\ntest('clamps a list', () => assert.deepEqual(clampAll([-1, 4, 11], 0, 10), [0, 4, 10]));\n",
};
/** The fix: NaN is passed through by Math.min/max; the upstream-style change makes clamp refuse it. */
const FIXED_INDEX =
  "'use strict';\n\nfunction clamp(value, min, max) {\n  if (Number.isNaN(value)) throw new TypeError('value must be a number');\n  if (min > max) throw new RangeError('min must not exceed max');\n  return Math.min(Math.max(value, min), max);\n}\n\nfunction clampAll(values, min, max) {\n  return values.map((v) => clamp(v, min, max));\n}\n\nmodule.exports = { clamp, clampAll };\n";

/** A bare repository holding the project (main) and its fix (upstream-fix), as a remote to clone from. */
function makeUpstream(): string {
  const root = tempDir('proofpr-real-src-');
  const src = join(root, 'src');
  const g = (...a: string[]) =>
    execFileSync('git', ['-c', 'user.name=upstream', '-c', 'user.email=upstream@example.invalid', ...a], { cwd: src });
  writeTree(src, PROJECT);
  g('init', '-q', '-b', 'main');
  g('add', '-A');
  g('commit', '-q', '-m', 'range-clamp 1.2.0');
  g('checkout', '-q', '-b', 'upstream-fix');
  writeFileSync(join(src, 'lib/index.js'), FIXED_INDEX);
  g('commit', '-qam', 'clamp: refuse NaN');
  g('checkout', '-q', 'main');
  execFileSync('git', ['clone', '-q', '--bare', src, join(root, 'range-clamp.git')]);
  return join(root, 'range-clamp.git');
}
const UPSTREAM = makeUpstream();

/** A fresh clone of the project: no .github/proofpr.yml. */
function freshClone(): { dir: string; work: string } {
  const work = tempDir('proofpr-real-');
  const dir = join(work, 'range-clamp');
  execFileSync('git', ['clone', '-q', '--no-single-branch', UPSTREAM, dir]);
  execFileSync('git', ['checkout', '-q', '-B', 'main', 'origin/main'], { cwd: dir });
  execFileSync('git', ['branch', '-q', 'upstream-fix', 'origin/upstream-fix'], { cwd: dir });
  return { dir, work };
}

describe('proofpr run on a fresh clone of an npm project with no config (the built CLI)', () => {
  let server: FakeMessagesServer;
  const contents = new Map<string, string>();
  beforeAll(async () => {
    const { dir } = freshClone();
    for (const f of FIXED) contents.set(f, execFileSync('git', ['show', `upstream-fix:${f}`], { cwd: dir, encoding: 'utf8' }));
    // The upstream fix, replayed through the tools: read each file, write its fixed content, run the tests.
    const steps = [
      ...FIXED.flatMap((f) => [
        ['Read', { file_path: f }],
        ['Write', { file_path: f, content: contents.get(f) }],
      ]),
      ['Bash', { command: 'npm test' }],
    ] as Array<[string, unknown]>;
    server = await startFakeMessagesServer((_b, n) => {
      const s = steps[n - 1];
      return s
        ? { content: [{ type: 'tool_use', id: `toolu_${n}`, name: s[0], input: s[1] }], stop_reason: 'tool_use' }
        : { content: [{ type: 'text', text: 'clamp refuses NaN.' }], stop_reason: 'end_turn' };
    });
  });
  afterAll(async () => server.close());

  it('cli run - detects `npm test` (scripts.test runs node --test) and verifies the upstream fix', async () => {
    const { dir, work } = freshClone();
    // Its one devDependency is a tool the tests never load: an installed (here empty) node_modules stands
    // for the user's `npm ci`, so the detected install is skipped and no network is needed.
    mkdirSync(join(dir, 'node_modules'));
    const r = await runCli(
      ['run', '--repo', dir, '--prompt', 'clamp(NaN) should throw a TypeError', '--out', join(work, 'run'), '--json'],
      {
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: 'sk-ant-test-0123456789',
        PROOFPR_HOME: join(work, 'home'),
      },
    );
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
    writeTree(empty, { 'README.md': '# notes\n' });
    commitAll(empty);
    // A bwrap that fails as on an AppArmor-restricted runner.
    const bin = join(work, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n');
    chmodSync(join(bin, 'bwrap'), 0o755);
    const before = server.requests.length;
    const r = await runCli(['run', '--repo', empty, '--prompt', 'fix it', '--out', join(work, 'run2')], {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'sk-ant-test-0123456789',
      PROOFPR_HOME: join(work, 'home2'),
    });
    expect(r.code).toBe(3);
    expect(server.requests.length).toBe(before);
    expect(r.stderr).toContain('set test.command in .github/proofpr.yml');
    const lines = r.stderr.split('\n');
    const sandboxLine = lines.findIndex((l) =>
      l.startsWith(
        'sandbox: NONE: no sandbox: bubblewrap cannot create namespaces here (bwrap said: bwrap: setting up uid map: Permission denied)',
      ),
    );
    expect(sandboxLine).toBeGreaterThanOrEqual(0);
    expect(sandboxLine).toBeLessThan(lines.findIndex((l) => l.startsWith('UNVERIFIED')));
  });
});
