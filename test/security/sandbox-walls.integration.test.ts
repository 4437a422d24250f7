import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createExec, type ExecHandle } from '../../src/workspace/exec.js';
import { detectBwrap } from '../../src/workspace/sandbox.js';
import { makeSecurityRepo } from './fixture.js';
import { maskedContent } from '../../src/secrets/placeholder.js';
import { FAKE_AWS_ENV } from '../kit/fake-secrets.js';

let repo: { root: string; outside: string };
let bwrap: string | null = null;
const handles: ExecHandle[] = [];

async function open(opts: Partial<Parameters<typeof createExec>[0]> = {}): Promise<ExecHandle> {
  const h = await createExec({
    root: repo.root,
    runTmp: join(repo.outside, `run-${handles.length}`),
    sandbox: 'required',
    protect: {},
    ...opts,
  });
  handles.push(h);
  return h;
}

beforeAll(async () => {
  bwrap = await detectBwrap();
  if (!bwrap) process.stdout.write('sandbox walls: skipped, bubblewrap cannot create namespaces on this machine (the walls need it)\n');
  repo = makeSecurityRepo();
  execFileSync('git', ['add', 'src', 'README.md'], { cwd: repo.root });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base'], { cwd: repo.root });
  writeFileSync(
    join(repo.root, 'read-secret.test.mjs'),
    [
      "import { test } from 'node:test';",
      "import assert from 'node:assert';",
      "import { readFileSync } from 'node:fs';",
      "test('the masked secrets show their placeholder', () => {",
      "  assert.match(readFileSync('.env', 'utf8'), /^proofpr: \\.env is masked/);",
      "  assert.match(readFileSync('id_rsa', 'utf8'), /^proofpr: id_rsa is masked/);",
      "  assert.match(readFileSync('.npmrc', 'utf8'), /^proofpr: \\.npmrc is masked/);",
      "  assert.match(readFileSync('.env.example', 'utf8'), /API_KEY=/);",
      '});',
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  for (const h of handles) await h.dispose();
});

const run = (h: ExecHandle, command: string) => h.exec({ command, cwd: repo.root, timeoutMs: 20_000 });

describe('sandbox walls (bubblewrap)', () => {
  it('walls - a test file reading a masked secret gets its placeholder (maskedContent); templates stay readable', async () => {
    if (!bwrap) return;
    const h = await open();
    const t = await run(h, 'node --test read-secret.test.mjs');
    expect({ exit: t.exitCode, out: t.output.slice(-600) }).toMatchObject({ exit: 0 });
    const shown = (await run(h, 'cat .env .env.local certs/server.pem config/credentials.json')).stdout;
    expect(shown).toBe(['.env', '.env.local', 'certs/server.pem', 'config/credentials.json'].map(maskedContent).join(''));
    expect(readFileSync(join(repo.root, '.env'), 'utf8')).toBe(FAKE_AWS_ENV);
  });

  it('walls - a Bash write to a control file fails, whatever the command', async () => {
    if (!bwrap) return;
    const h = await open();
    const attempts = [
      'echo x > .github/proofpr.yml',
      'echo x >> .github/workflows/ci.yml',
      "sed -i 's/npm/curl/' .github/proofpr.yml",
      'cp src/a.ts .husky/pre-commit',
      'mv src/b.ts .githooks/pre-push',
      'rm -f .gitattributes',
      'truncate -s 0 .pnpmfile.cjs',
      "node -e \"require('fs').writeFileSync('.mcp.json', 'x')\"",
      "python3 -c \"open('.vscode/tasks.json', 'w').write('x')\"",
      'ln -sf /etc/passwd .gitmodules',
      'touch .github/workflows/new.yml',
      'mkdir -p .github/workflows/x && echo x > .github/workflows/x/y.yml',
      'echo x > .claude/settings.json',
      'echo "* filter=evil" > .gitattributes',
    ];
    for (const command of attempts) {
      const r = await run(h, command);
      expect({ command, failed: r.exitCode !== 0 }).toEqual({ command, failed: true });
    }
    expect(readFileSync(join(repo.root, '.github/proofpr.yml'), 'utf8')).toBe('test:\n  command: npm test\n');
    expect(readFileSync(join(repo.root, '.gitattributes'), 'utf8')).toBe('* text=auto\n');
    expect(existsSync(join(repo.root, '.github/workflows/new.yml'))).toBe(false);
    expect(readFileSync(join(repo.root, 'src/b.ts'), 'utf8')).toBe('export const b = 2;\n');
    // Ordinary files stay writable.
    expect((await run(h, 'echo ok > src/new.ts && cat src/new.ts')).stdout).toBe('ok\n');
  });

  it('walls - ignored scratch and build output are writable; an ignored dependency folder in the worktree is read-only', async () => {
    if (!bwrap) return;
    const h = await open();
    expect((await run(h, 'mkdir -p dist && echo built > dist/out.js && echo note > scratch.log && cat dist/out.js')).stdout).toBe(
      'built\n',
    );
    expect(readFileSync(join(repo.root, 'scratch.log'), 'utf8')).toBe('note\n');
    for (const command of [
      'echo x > node_modules/dep/index.js',
      "node -e \"require('fs').writeFileSync('node_modules/dep/new.js', 'x')\"",
      'rm -f node_modules/dep/index.js',
    ]) {
      expect({ command, failed: (await run(h, command)).exitCode !== 0 }).toEqual({ command, failed: true });
    }
    expect(readFileSync(join(repo.root, 'node_modules/dep/index.js'), 'utf8')).toBe('module.exports = 1;\n');
    expect(existsSync(join(repo.root, 'node_modules/dep/new.js'))).toBe(false);
  });

  it('walls - without protection (setup.command) the dependency folder stays writable', async () => {
    if (!bwrap) return;
    const h = await open({ protect: undefined });
    expect((await run(h, 'echo x > node_modules/dep/setup-wrote.js')).exitCode).toBe(0);
    rmSync(join(repo.root, 'node_modules/dep/setup-wrote.js'));
  });

  it('walls - permissions.writable opens a control path, and only that one', async () => {
    if (!bwrap) return;
    const h = await open({ protect: { writable: ['.husky/**'], writableWorkflows: true } });
    expect((await run(h, 'echo "npm test" > .husky/pre-commit')).exitCode).toBe(0);
    expect((await run(h, 'echo "on: push" > .github/workflows/ci.yml')).exitCode).toBe(0);
    expect((await run(h, 'echo x > .github/proofpr.yml')).exitCode).not.toBe(0);
  });

  it('walls - plan mode mounts the worktree read-only', async () => {
    if (!bwrap) return;
    const h = await open({ readOnlyWorktree: true });
    expect((await run(h, 'echo x > src/plan.ts')).exitCode).not.toBe(0);
    expect((await run(h, 'cat src/a.ts')).stdout).toBe('export const a = 1;\n');
    expect(existsSync(join(repo.root, 'src/plan.ts'))).toBe(false);
  });

  it('walls - git is pinned to the worktree: an embedded repository and its fsmonitor are never used', async () => {
    if (!bwrap) return;
    const embedded = join(repo.root, 'vendor/embedded');
    execFileSync('git', ['config', 'core.fsmonitor', `touch ${join(repo.root, 'canary-fsmonitor')}`], { cwd: embedded });
    const h = await open();
    const r = await run(h, 'cd vendor/embedded && git status --short && git rev-parse --show-toplevel');
    expect(r.stdout.trim().split('\n').pop()).toBe(repo.root);
    expect(existsSync(join(repo.root, 'canary-fsmonitor'))).toBe(false);
  });
});
