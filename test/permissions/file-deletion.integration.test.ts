/**
 * Deleting a file is a write to it: `rm [-f] [--] FILE…` from the worktree root, each file named
 * literally, is allowed without a rule wherever the Write tool may write that file. Recursion, folders,
 * globs, expansions, a `cd` first, protected, secret or dependency paths, and plan mode still refuse.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createPolicy } from '../../src/agent/permissions/create-policy.js';
import type { PermissionPolicy } from '../../src/agent/permissions/types.js';
import { tempDir } from '../kit/temp.js';

let base: string;
let root: string;
let policy: PermissionPolicy;
let plan: PermissionPolicy;
let denied: PermissionPolicy;

function put(rel: string, content: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

beforeAll(async () => {
  base = tempDir('proofpr-rm-');
  root = join(base, 'repo');
  put('.gitignore', 'node_modules/\n');
  put('node_modules/dep/index.js', 'module.exports = 1;\n');
  put('src/old.js', 'x\n');
  put('tests/data/case.toml', 'a = 1\n');
  put('.env', 'TOKEN=1\n');
  put('.github/workflows/ci.yml', 'on: push\n');
  put('config/npmrc', 'registry=x\n');
  symlinkSync('config/npmrc', join(root, '.npmrc'));
  symlinkSync('../src/old.js', join(root, 'config', 'link.js'));
  execFileSync('git', ['init', '-q'], { cwd: root });
  policy = await createPolicy({ root, mode: 'default', allow: [], deny: [], testCommand: 'npm test' });
  plan = await createPolicy({ root, mode: 'plan', allow: [], deny: [], testCommand: 'npm test' });
  denied = await createPolicy({ root, mode: 'default', allow: [], deny: ['Edit(tests/**)'], testCommand: 'npm test' });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const bash = (p: PermissionPolicy, command: string) => p.check('Bash', { command });

describe('rm of named files in the worktree', () => {
  it('allowed without a rule: one or more files, -f, --, quoted names, a path under a test folder', async () => {
    for (const command of [
      'rm src/old.js',
      'rm -f -- "tests/data/case.toml"',
      'rm -- src/old.js tests/data/case.toml',
      `rm ${root}/src/old.js`,
      'rm src/old.js && git status --short',
    ]) {
      const d = await bash(policy, command);
      expect({ command, behavior: d.behavior, rule: d.rule }).toEqual({
        command,
        behavior: 'allow',
        rule: expect.stringContaining('builtin-allow:rm'),
      });
    }
  });

  it('refused: recursion, a glob, an expansion, a cd first, outside the worktree, .git, secrets, workflows, dependency folders, symlinks (a protected .npmrc linked to an open file)', async () => {
    for (const command of [
      'rm -r src',
      'rm -rf src',
      'rm -d src',
      'rm src/*.js',
      'rm "$F"',
      'cd src && rm old.js',
      'rm ../outside.txt',
      'rm /etc/hosts',
      'rm .git/config',
      'rm .env',
      'rm .github/workflows/ci.yml',
      'rm node_modules/dep/index.js',
      'rm .npmrc',
      'rm config/link.js',
      'rm',
    ]) {
      expect({ command, behavior: (await bash(policy, command)).behavior }).toEqual({ command, behavior: 'deny' });
    }
  });

  it('a deny rule on the path, and plan mode, refuse it too', async () => {
    expect((await bash(denied, 'rm tests/data/case.toml')).behavior).toBe('deny');
    expect((await bash(denied, 'rm src/old.js')).behavior).toBe('allow');
    expect((await bash(plan, 'rm src/old.js')).behavior).toBe('deny');
  });
});
