import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createPolicy } from '../../src/agent/permissions/create-policy.js';
import type { PermissionPolicy } from '../../src/agent/permissions/types.js';

let base: string;
let root: string;
let policy: PermissionPolicy;

function put(rel: string, content: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

const allow = ['Bash(cp:*)', 'Bash(mv:*)', 'Bash(sed:*)', 'Bash(tee:*)', 'Bash(touch:*)', 'Bash(rm:*)', 'Bash(mkdir:*)', 'Bash(npm test:*)'];

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'proofpr-ignored-')));
  root = join(base, 'repo');
  put('.gitignore', 'node_modules/\ndist/\n*.log\nreports/\n');
  put('node_modules/dep/index.js', 'module.exports = 1;\n');
  put('src/a.ts', 'export const a = 1;\n');
  put('vendor.log', 'tracked although it matches *.log\n');
  execFileSync('git', ['init', '-q'], { cwd: root });
  execFileSync('git', ['add', '-f', 'vendor.log'], { cwd: root });
  policy = await createPolicy({ root, mode: 'default', allow, deny: [], testCommand: 'npm test > reports/out.txt' });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const bash = (command: string) => policy.check('Bash', { command });

describe('writes into git-ignored paths', () => {
  it('ignored - Write into an ignored folder is refused with the reason and what to do instead', async () => {
    const d = await policy.check('Write', { file_path: 'node_modules/dep/index.js', content: 'x' });
    expect(d).toEqual({
      behavior: 'deny',
      rule: 'builtin-deny:ignored-path',
      reason: 'Write refused: node_modules/dep/index.js is ignored by git, so a change there would not be part of the commit; change tracked files instead',
    });
  });

  it('ignored - files and folders that do not exist yet are checked too', async () => {
    expect((await policy.check('Write', { file_path: 'dist/deep/new.js', content: 'x' })).rule).toBe('builtin-deny:ignored-path');
    expect((await policy.check('Write', { file_path: 'new.log', content: 'x' })).rule).toBe('builtin-deny:ignored-path');
    expect((await policy.check('Edit', { file_path: `${root}/node_modules/dep/index.js`, old_string: '1', new_string: '2' })).rule).toBe('builtin-deny:ignored-path');
  });

  it('ignored - a tracked file that matches an ignore pattern is still committed, so it stays writable', async () => {
    expect((await policy.check('Write', { file_path: 'vendor.log', content: 'x' })).behavior).toBe('allow');
    expect((await bash('echo x > vendor.log')).behavior).toBe('allow');
  });

  it('ignored - Bash redirects, tee, cp/mv destinations, sed -i and touch into ignored paths are refused', async () => {
    for (const command of [
      'echo x > node_modules/dep/index.js',
      'echo x >> dist/out.js',
      'echo x | tee -a node_modules/dep/index.js',
      'cp src/a.ts node_modules/dep/',
      'cp src/a.ts copy.log',
      'cp -t dist src/a.ts',
      'mv src/a.ts dist/a.ts',
      "sed -i 's/1/2/' node_modules/dep/index.js",
      'touch debug.log',
      'cd node_modules && echo x > dep/index.js',
    ]) {
      const d = await bash(command);
      expect({ command, rule: d.rule }).toEqual({ command, rule: 'builtin-deny:ignored-path' });
      expect(d.reason).toMatch(/is ignored by git, so a change there would not be part of the commit; change tracked files instead$/);
    }
  });

  it('ignored - reading from ignored paths, deleting there and creating folders stay allowed', async () => {
    for (const command of ['cp node_modules/dep/index.js src/dep.js', 'cat node_modules/dep/index.js', 'rm -rf dist', 'mkdir -p dist/x', 'echo x > src/new.ts']) {
      expect({ command, behavior: (await bash(command)).behavior }).toEqual({ command, behavior: 'allow' });
    }
  });

  it("ignored - the test command's own redirect into an ignored report folder stays allowed", async () => {
    expect((await bash('npm test > reports/out.txt')).behavior).toBe('allow');
    expect((await bash('echo forged > reports/out.txt')).rule).toBe('builtin-deny:ignored-path');
  });

  it('ignored - answers follow .gitignore changes made by Write or Bash', async () => {
    expect((await policy.check('Write', { file_path: 'gen/a.ts', content: 'x' })).behavior).toBe('allow');
    expect((await policy.check('Write', { file_path: '.gitignore', content: 'x' })).behavior).toBe('allow');
    appendFileSync(join(root, '.gitignore'), 'gen/\n');
    policy.executed?.('Write', { file_path: '.gitignore', content: 'x' });
    expect((await policy.check('Write', { file_path: 'gen/a.ts', content: 'x' })).rule).toBe('builtin-deny:ignored-path');
    expect((await policy.check('Write', { file_path: 'gen2/a.ts', content: 'x' })).behavior).toBe('allow');
    expect((await bash('git status')).behavior).toBe('allow');
    appendFileSync(join(root, '.gitignore'), 'gen2/\n');
    policy.executed?.('Bash', { command: 'git status' });
    expect((await policy.check('Write', { file_path: 'gen2/a.ts', content: 'x' })).rule).toBe('builtin-deny:ignored-path');
  });

  it('ignored - outside a git repository nothing counts as ignored', async () => {
    const plain = join(base, 'plain');
    mkdirSync(plain);
    writeFileSync(join(plain, '.gitignore'), 'dist/\n');
    const p = await createPolicy({ root: plain, mode: 'default', allow: [], deny: [] });
    expect((await p.check('Write', { file_path: 'dist/a.js', content: 'x' })).behavior).toBe('allow');
  });
});
