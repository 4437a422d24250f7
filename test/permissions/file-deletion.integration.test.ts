/**
 * Deleting a file is a write to it: `rm [-f] [--] FILE…` from the worktree root, each file named
 * literally, is allowed without a rule wherever the Write tool may write that file. Recursion, folders,
 * globs, expansions, a `cd` first, protected, secret or dependency paths, and plan mode still refuse.
 */
import { describe, expect, it } from '@jest/globals';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { bashBehavior, itDecides, usePolicies } from '../kit/walls-policy.js';
import { git } from '../tools/helpers/context.js';
import { tempDir } from '../kit/temp.js';
import { writeFiles } from '../workspace/git-fixtures.js';
import { FAKE_AWS_ENV } from '../kit/fake-secrets.js';

let root: string;

/** Files to delete, and the protected, secret and dependency paths (one behind a symlink) never to delete. */
function worktree(): string {
  root = join(tempDir('proofpr-rm-'), 'repo');
  writeFiles(root, {
    '.gitignore': 'node_modules/\n',
    'node_modules/dep/index.js': 'module.exports = 1;\n',
    'src/old.js': 'x\n',
    'tests/data/case.toml': 'a = 1\n',
    '.env': FAKE_AWS_ENV,
    '.github/workflows/ci.yml': 'on: push\n',
    'config/npmrc': 'registry=x\n',
  });
  symlinkSync('config/npmrc', join(root, '.npmrc'));
  symlinkSync('../src/old.js', join(root, 'config', 'link.js'));
  git(root, 'init', '-q');
  return root;
}

const { policy, plan, denied } = usePolicies(worktree, {
  policy: { testCommand: 'npm test' },
  plan: { mode: 'plan', testCommand: 'npm test' },
  denied: { deny: ['Edit(tests/**)'], testCommand: 'npm test' },
});

describe('rm of named files in the worktree', () => {
  it('allowed without a rule: one or more files, -f, --, quoted names, a path under a test folder', async () => {
    for (const command of [
      'rm src/old.js',
      'rm -f -- "tests/data/case.toml"',
      'rm -- src/old.js tests/data/case.toml',
      `rm ${root}/src/old.js`,
      'rm src/old.js && git status --short',
    ]) {
      const d = await policy.check('Bash', { command });
      expect({ command, behavior: d.behavior, rule: d.rule }).toEqual({
        command,
        behavior: 'allow',
        rule: expect.stringContaining('builtin-allow:rm'),
      });
    }
  });

  itDecides(
    'refused: recursion, a glob, an expansion, a cd first, outside the worktree, .git, secrets, workflows, dependency folders, symlinks (a protected .npmrc linked to an open file): %s',
    'deny',
    [
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
    ],
    policy,
  );

  it('a deny rule on the path, and plan mode, refuse it too', async () => {
    expect(await bashBehavior(denied)('rm tests/data/case.toml')).toBe('deny');
    expect(await bashBehavior(denied)('rm src/old.js')).toBe('allow');
    expect(await bashBehavior(plan)('rm src/old.js')).toBe('deny');
  });
});
