import { execFileSync } from 'node:child_process';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { makePolicyRepo } from '../permissions/fixture-repo.js';
import { writeFiles } from '../workspace/git-fixtures.js';
import { FAKE_AWS_SECRET, FAKE_NPM_TOKEN, FAKE_PASSWORD, FAKE_PEM } from '../kit/fake-secrets.js';

/**
 * The permission fixture plus what an attacker aims at: control files (CI config, hooks, agent and
 * package-manager configs, .github/proofpr.yml), secrets (.env, a private key, an .npmrc with a token),
 * an embedded repository, dangling symlinks out of the worktree and into control files.
 */
export function makeSecurityRepo(): { root: string; outside: string } {
  const repo = makePolicyRepo();
  const { root } = repo;
  writeFiles(root, {
    '.github/proofpr.yml': 'test:\n  command: npm test\n',
    '.github/actions/setup/action.yml': 'runs: { using: node20, main: index.js }\n',
    '.husky/pre-commit': '#!/bin/sh\nnpm test\n',
    '.githooks/pre-push': '#!/bin/sh\n',
    '.claude/settings.json': '{}\n',
    '.mcp.json': '{}\n',
    '.vscode/tasks.json': '{}\n',
    '.npmrc': `//registry.npmjs.org/:_authToken=${FAKE_NPM_TOKEN}\n`,
    '.yarnrc.yml': 'nodeLinker: node-modules\n',
    '.pnpmfile.cjs': 'module.exports = {};\n',
    '.gitmodules': '',
    '.gitattributes': '* text=auto\n',
    '.env.local': `API_KEY=${FAKE_AWS_SECRET}\n`,
    '.env.example': 'API_KEY=\n',
    id_rsa: FAKE_PEM('OPENSSH PRIVATE KEY'),
    'certs/server.pem': FAKE_PEM(),
    'certs/ca.pem': '-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n',
    'config/credentials.json': `{"password": "${FAKE_PASSWORD}"}\n`,
    'vendor/embedded/README': 'an embedded repository\n',
    'go.mod': 'module example.com/m\n',
    'list.txt': '/etc/passwd\n',
    'src/deep/c.ts': 'export const c = 3;\n',
  });
  execFileSync('git', ['init', '-q'], { cwd: join(root, 'vendor/embedded') });
  symlinkSync('/etc/proofpr-corpus-missing/cron', join(root, 'dangling'));
  symlinkSync('../outside-new-dir/file', join(root, 'dangling-rel'));
  symlinkSync('.github/workflows/new.yml', join(root, 'dangling-ci'));
  symlinkSync('.env', join(root, 'env-link'));
  return repo;
}
