import { describe, it, expect } from '@jest/globals';
import {
  hasToken,
  isControlPath,
  isSecretName,
  isTokenFileName,
  protectedWriteReason,
  writableMatcher,
} from '../../src/workspace/protected-paths.js';

describe('protected paths', () => {
  it('protected - secret names: .env files, private keys, credential stores; templates and sources are not', () => {
    for (const p of [
      '.env',
      '.env.local',
      'packages/api/.env.production',
      'id_rsa',
      'deploy/id_ed25519',
      '.git-credentials',
      '.netrc',
      'certs/store.p12',
    ]) {
      expect({ p, secret: isSecretName(p) }).toEqual({ p, secret: true });
    }
    for (const p of ['.env.example', '.env.sample', 'src/env.ts', 'src/credentials.ts', 'README.md', 'environment.md']) {
      expect({ p, secret: isSecretName(p) }).toEqual({ p, secret: false });
    }
  });

  it('protected - token files are secrets only when their content carries a token or a private key', () => {
    expect(isTokenFileName('.npmrc')).toBe(true);
    expect(isTokenFileName('sub/.pypirc')).toBe(true);
    expect(isTokenFileName('certs/server.pem')).toBe(true);
    expect(isTokenFileName('src/credentials.ts')).toBe(false);
    expect(hasToken('//registry.npmjs.org/:_authToken=npm_abc\n')).toBe(true);
    expect(hasToken('[pypi]\nusername = __token__\npassword = pypi-xyz\n')).toBe(true);
    expect(hasToken('-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n')).toBe(true);
    expect(hasToken('machine api.example.com login me password hunter2\n')).toBe(true);
    expect(hasToken('registry=https://registry.npmjs.org/\nsave-exact=true\n')).toBe(false);
    expect(hasToken('-----BEGIN CERTIFICATE-----\nabc\n')).toBe(false);
  });

  it('protected - control files: CI config, hooks, agent and package-manager configs, git attributes and modules', () => {
    for (const p of [
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
    ]) {
      expect({ p, control: isControlPath(p) }).toEqual({ p, control: true });
    }
    for (const p of ['src/github.ts', 'docs/.github.md', '.vscode/settings.json', 'package.json', '.gitignore', 'src/.husky.ts']) {
      expect({ p, control: isControlPath(p) }).toEqual({ p, control: false });
    }
  });

  it('protected - permissions.writable opens named paths; writable_workflows opens .github/workflows only', () => {
    const none = writableMatcher();
    expect(protectedWriteReason('.github/workflows/ci.yml', none)).toMatch(/permissions\.writable_workflows: true/);
    expect(protectedWriteReason('.env', none)).toMatch(/secret file/);
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
