import { describe, it, expect } from '@jest/globals';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectBehaviors, itDecides, policyOver, usePolicies } from '../kit/walls-policy.js';
import { git } from '../tools/helpers/context.js';
import { tempDir } from '../kit/temp.js';
import { writeFiles } from '../workspace/git-fixtures.js';
import { FAKE_AWS_ENV } from '../kit/fake-secrets.js';

let base: string;
let root: string;

/** Ignored dependency folders, build output and logs, and one tracked file an ignore pattern matches. */
function worktree(): string {
  base = tempDir('proofpr-ignored-');
  root = join(base, 'repo');
  writeFiles(root, {
    '.gitignore': 'node_modules/\n.venv/\ndist/\n*.log\nreports/\n.env*\n.npmrc\n.github/proofpr.yml\n',
    'node_modules/dep/index.js': 'module.exports = 1;\n',
    'src/a.ts': 'export const a = 1;\n',
    'vendor.log': 'tracked although it matches *.log\n',
    'debug.log': 'a\n',
    'dist/out.js': '1\n',
    // An ignored credential file: masked for what it holds, so no tool overwrites it.
    '.env.production': FAKE_AWS_ENV,
  });
  git(root, 'init', '-q');
  git(root, 'add', '-f', 'vendor.log');
  return root;
}

const allow = [
  'Bash(cp:*)',
  'Bash(mv:*)',
  'Bash(sed -i:*)',
  'Bash(tee:*)',
  'Bash(touch:*)',
  'Bash(rm:*)',
  'Bash(mkdir:*)',
  'Bash(npm test:*)',
];

const { policy } = usePolicies(worktree, { policy: { allow, testCommand: 'npm test > reports/out.txt' } });

const bash = (command: string) => policy.check('Bash', { command });

const DEP =
  /is inside (node_modules|\.venv), an installed dependency folder git ignores: the harness's clean final run reuses that folder, so a change there would change the verdict without being part of the commit; change tracked files instead \(dependencies come from setup\.command\)$/;

describe('writes into git-ignored paths (CONTRACT §9: writable unless protected)', () => {
  it('ignored - Write, Edit and Bash writes into ignored scratch and build output are allowed (the final run never sees them)', async () => {
    for (const [tool, input] of [
      ['Write', { file_path: 'dist/deep/new.js', content: 'x' }],
      ['Write', { file_path: 'new.log', content: 'x' }],
      ['Write', { file_path: `${root}/dist/bundle.js`, content: 'x' }],
      ['Edit', { file_path: 'debug.log', old_string: 'a', new_string: 'b' }],
    ] as const) {
      expect({ tool, input, behavior: (await policy.check(tool, input)).behavior }).toEqual({ tool, input, behavior: 'allow' });
    }
    await expectBehaviors(policy, 'allow', [
      'echo x >> dist/out.js',
      'cp src/a.ts copy.log',
      'cp -t dist src/a.ts',
      'mv src/a.ts dist/a.ts',
      'touch debug.log',
      'echo forged > reports/out.txt',
      'cd dist && echo x > a.js',
      "sed -i 's/1/2/' dist/out.js",
    ]);
  });

  it('ignored - an installed dependency folder git ignores stays refused, with the reason and what to do instead', async () => {
    const d = await policy.check('Write', { file_path: 'node_modules/dep/index.js', content: 'x' });
    expect(d).toEqual({
      behavior: 'deny',
      rule: 'builtin-deny:dependency-path',
      reason:
        "Write refused: node_modules/dep/index.js is inside node_modules, an installed dependency folder git ignores: the harness's clean final run reuses that folder, so a change there would change the verdict without being part of the commit; change tracked files instead (dependencies come from setup.command)",
    });
    expect((await policy.check('Write', { file_path: 'node_modules/dep/new-file.js', content: 'x' })).rule).toBe(
      'builtin-deny:dependency-path',
    );
    expect((await policy.check('Write', { file_path: '.venv/lib/site.py', content: 'x' })).rule).toBe('builtin-deny:dependency-path');
    expect((await policy.check('Edit', { file_path: `${root}/node_modules/dep/index.js`, old_string: '1', new_string: '2' })).rule).toBe(
      'builtin-deny:dependency-path',
    );
  });

  it('ignored - Bash redirects, tee, cp/mv destinations, sed -i and touch into an ignored dependency folder are refused', async () => {
    for (const command of [
      'echo x > node_modules/dep/index.js',
      'echo x | tee -a node_modules/dep/index.js',
      'cp src/a.ts node_modules/dep/',
      'cp -t node_modules src/a.ts',
      'mv src/a.ts node_modules/a.ts',
      "sed -i 's/1/2/' node_modules/dep/index.js",
      'touch .venv/pyvenv.cfg',
      'cd node_modules && echo x > dep/index.js',
    ]) {
      const d = await bash(command);
      expect({ command, rule: d.rule }).toEqual({ command, rule: 'builtin-deny:dependency-path' });
      expect(d.reason).toMatch(DEP);
    }
  });

  it('ignored - the protected paths stay refused although git ignores them: .git, masked files, control files', async () => {
    expect((await policy.check('Write', { file_path: '.git/hooks/pre-commit', content: 'x' })).rule).toBe('builtin-deny:path');
    expect((await policy.check('Write', { file_path: '.env.production', content: 'x' })).rule).toBe('builtin-deny:path');
    // A secret is judged by what a file holds, not its name: a new `.env.local` of fixtures may be written
    // (ignored by the base, it never enters a commit).
    expect((await policy.check('Write', { file_path: '.env.local', content: 'x' })).rule).not.toBe('builtin-deny:path');
    expect((await policy.check('Write', { file_path: '.npmrc', content: 'x' })).rule).toBe('builtin-deny:path');
    expect((await policy.check('Write', { file_path: '.github/proofpr.yml', content: 'x' })).rule).toBe('builtin-deny:path');
    expect((await bash('echo x > .env.production')).behavior).toBe('deny');
    expect((await bash('echo x > .npmrc')).behavior).toBe('deny');
  });

  it('ignored - a tracked file that matches an ignore pattern is committed, so it is writable', async () => {
    expect((await policy.check('Write', { file_path: 'vendor.log', content: 'x' })).behavior).toBe('allow');
    expect((await bash('echo x > vendor.log')).behavior).toBe('allow');
  });

  itDecides(
    'ignored - reading from dependency folders, deleting there and creating folders stay allowed: %s',
    'allow',
    ['cp node_modules/dep/index.js src/dep.js', 'cat node_modules/dep/index.js', 'rm -rf dist', 'mkdir -p dist/x', 'echo x > src/new.ts'],
    policy,
  );

  it("ignored - the test command's own redirect stays allowed", async () => {
    expect((await bash('npm test > reports/out.txt')).behavior).toBe('allow');
  });

  it('ignored - answers follow .gitignore changes made by Write or Bash', async () => {
    expect((await policy.check('Write', { file_path: 'gen/vendor/a.ts', content: 'x' })).behavior).toBe('allow');
    expect((await policy.check('Write', { file_path: '.gitignore', content: 'x' })).behavior).toBe('allow');
    appendFileSync(join(root, '.gitignore'), 'gen/\n');
    policy.executed?.('Write', { file_path: '.gitignore', content: 'x' });
    expect((await policy.check('Write', { file_path: 'gen/vendor/a.ts', content: 'x' })).rule).toBe('builtin-deny:dependency-path');
    expect((await policy.check('Write', { file_path: 'gen2/vendor/a.ts', content: 'x' })).behavior).toBe('allow');
    expect((await bash('git status')).behavior).toBe('allow');
    appendFileSync(join(root, '.gitignore'), 'gen2/\n');
    policy.executed?.('Bash', { command: 'git status' });
    expect((await policy.check('Write', { file_path: 'gen2/vendor/a.ts', content: 'x' })).rule).toBe('builtin-deny:dependency-path');
    expect((await policy.check('Write', { file_path: 'gen2/other.ts', content: 'x' })).behavior).toBe('allow');
  });

  it('ignored - outside a git repository nothing counts as ignored', async () => {
    const plain = join(base, 'plain');
    mkdirSync(plain);
    writeFileSync(join(plain, '.gitignore'), 'node_modules/\n');
    const p = await policyOver(plain);
    expect((await p.check('Write', { file_path: 'node_modules/a.js', content: 'x' })).behavior).toBe('allow');
  });
});
