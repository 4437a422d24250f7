import { describe, it, expect } from '@jest/globals';
import {
  hasToken,
  isControlPath,
  isSecretName,
  isTokenFileName,
  protectedWriteReason,
  writableMatcher,
} from '../../src/workspace/protected-paths.js';
import { expectEach } from '../kit/walls-expect.js';

const SECRET_NAMES = [
  '.env',
  '.env.local',
  'packages/api/.env.production',
  'id_rsa',
  'deploy/id_ed25519',
  '.git-credentials',
  '.netrc',
  'certs/store.p12',
];
const NOT_SECRET = ['.env.example', '.env.sample', 'src/env.ts', 'src/credentials.ts', 'README.md', 'environment.md'];
const CONTROL_FILES = [
  '.github/workflows/ci.yml',
  '.github/actions/setup/action.yml',
  '.github/proofpr.yml',
  '.husky/pre-commit',
  '.githooks/pre-push',
  '.claude/settings.json',
  '.mcp.json',
  '.vscode/tasks.json',
  '.npmrc',
  'packages/a/.npmrc',
  '.yarnrc.yml',
  '.yarnrc',
  '.pnpmfile.cjs',
  '.gitmodules',
  '.gitattributes',
  'sub/.gitattributes',
];
const NOT_CONTROL = ['src/github.ts', 'docs/.github.md', '.vscode/settings.json', 'package.json', '.gitignore', 'src/.husky.ts'];

describe('protected paths', () => {
  it('protected - secret names (a hint for ignore rules, never a wall): .env files, private keys, credential stores; templates and sources are not', () => {
    expectEach(isSecretName, true, SECRET_NAMES);
    expectEach(isSecretName, false, NOT_SECRET);
  });

  it('protected - a file is a secret by what it holds: a real-shaped token, key or password, never a fixture value', () => {
    expectEach(isTokenFileName, true, ['.npmrc', 'sub/.pypirc', 'certs/server.pem']);
    expectEach(isTokenFileName, false, ['src/credentials.ts']);
    expectEach(hasToken, true, [
      '//registry.npmjs.org/:_authToken=npm_Zk3qT8vW1xY5bN7mR2pL9dF4hJ6sA0cE3gK8\n',
      '[pypi]\nusername = __token__\npassword = Qx7#vN2!rT9pLw4z\n',
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n',
      'machine api.example.com login me password 9f8e7d6c5b4a39281706f5e4d3c2b1a0\n',
    ]);
    expectEach(hasToken, false, [
      'registry=https://registry.npmjs.org/\nsave-exact=true\n',
      '-----BEGIN CERTIFICATE-----\nabc\n',
      '[pypi]\nusername = __token__\npassword = pypi-xyz\n',
      'machine api.example.com login me password hunter2\n',
    ]);
  });

  it('protected - control files: CI config, hooks, agent and package-manager configs, git attributes and modules', () => {
    expectEach(isControlPath, true, CONTROL_FILES);
    expectEach(isControlPath, false, NOT_CONTROL);
  });

  it('protected - permissions.writable opens named paths; writable_workflows opens .github/workflows only', () => {
    const none = writableMatcher();
    expect(protectedWriteReason('.github/workflows/ci.yml', none)).toMatch(/permissions\.writable_workflows: true/);
    // A secret is judged by content (the path jail refuses a write over a masked file): a name alone is no refusal.
    expect(protectedWriteReason('.env', none)).toBeNull();
    expect(protectedWriteReason('src/a.ts', none)).toBeNull();
    const wf = writableMatcher([], true);
    expect(protectedWriteReason('.github/workflows/ci.yml', wf)).toBeNull();
    expect(protectedWriteReason('.github/proofpr.yml', wf)).toMatch(/control file/);
    const named = writableMatcher(['.husky/**', './.npmrc']);
    expect(protectedWriteReason('.husky/pre-commit', named)).toBeNull();
    expect(protectedWriteReason('.npmrc', named)).toBeNull();
    expect(protectedWriteReason('.githooks/pre-push', named)).toMatch(/control file/);
  });
});
