import { execFileSync } from 'node:child_process';
import { chmodSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../kit/temp.js';
import { writeFiles } from '../workspace/git-fixtures.js';
import { FAKE_AWS_ENV } from '../kit/fake-secrets.js';

/** A small worktree with the traps the policy corpus needs (symlinks out, .git, workflows, .env, ignored and denied paths). */
export function makePolicyRepo(): { root: string; outside: string } {
  const outside = tempDir('proofpr-policy-');
  const root = join(outside, 'repo');
  writeFiles(root, {
    'src/a.ts': 'export const a = 1;\n',
    'src/b.ts': 'export const b = 2;\n',
    'README.md': '# fixture\n',
    'package.json': '{"name":"fixture","scripts":{"test":"node scripts/build.js"}}\n',
    'data.csv': 'a,b\n1,2\n',
    'scripts/build.js': 'console.log("built");\n',
    'docs/guide.md': '# guide\n',
    '.env': FAKE_AWS_ENV,
    '.github/workflows/ci.yml': 'on: push\n',
    'node_modules/.bin/jest': '#!/bin/sh\necho jest\n',
    'node_modules/dep/index.js': 'module.exports = 1;\n',
    '.gitignore': 'node_modules/\ndist/\n*.log\nreports/\n',
    'tracked.log': 'kept on purpose\n',
    'private/key.txt': 'KEY=1\n',
    'lib/.hidden/deny-me.ts': 'x\n',
    'node_modules/dep/token.txt': 'KEY=npm\n',
    'private.log': 'KEY=log\n',
    'lib/util.ts': 'x\n',
  });
  chmodSync(join(root, 'node_modules/.bin/jest'), 0o755);
  symlinkSync('src/a.ts', join(root, 'link-inside.ts'));
  symlinkSync('/etc', join(root, 'evil'));
  symlinkSync('..', join(root, 'up'));
  symlinkSync('.git', join(root, 'gitlink'));
  writeFileSync(join(outside, 'outside-secret.txt'), 'SECRET=outside\n');
  symlinkSync('../outside-secret.txt', join(root, 'outlink.txt'));
  execFileSync('git', ['init', '-q'], { cwd: root });
  execFileSync('git', ['add', '-f', 'tracked.log', 'private/key.txt'], { cwd: root });
  return { root, outside };
}
