/**
 * The program a command could not start (exit 127), read from each shell's own message, and the fix
 * named for it: a dependency's program (install with the project's own command) or a machine's program.
 * Also how corepack's failures are told apart: a signature it cannot verify, or a download that failed.
 */
import { describe, expect, it } from '@jest/globals';
import { missingProgram, missingProgramFix } from '../../src/detect/missing-program.js';
import { corepackFailure, errorLine, isSignatureFailure, pinnedSpec } from '../../src/run/corepack-failure.js';
import { probeEnv } from '../../src/run/package-manager-tool.js';
import { tempProject } from '../kit/verify-files.js';

const project = (files: Record<string, string>) => tempProject(files, 'proofpr-missing-program-');

describe('missingProgram', () => {
  it("reads bash, dash, zsh and env's messages; the last one printed wins; none when nothing is missing", () => {
    expect(missingProgram('bash: line 1: vitest: command not found\n')).toBe('vitest');
    expect(missingProgram('bash: jest: command not found')).toBe('jest');
    expect(missingProgram('\n> p@1.0.0 test\n> tsc && mocha\n\nsh: 1: mocha: not found\n')).toBe('mocha');
    expect(missingProgram('zsh: command not found: cargo')).toBe('cargo');
    expect(missingProgram("/usr/bin/env: 'python3': No such file or directory")).toBe('python3');
    expect(missingProgram('sh: 1: tsc: not found\nsh: 1: ava: not found\n')).toBe('ava');
    expect(missingProgram('Error: Cannot find module ./x\n  3 passed\n')).toBeUndefined();
    expect(missingProgram('✓ reports "not found" for a missing key')).toBeUndefined();
  });

  it("missingProgramFix: a dependency's program names the project's install (lock file), a machine's program says to install it", async () => {
    const pnpm = project({ 'package.json': JSON.stringify({ devDependencies: { vitest: '3' } }), 'pnpm-lock.yaml': '' });
    expect(await missingProgramFix(pnpm, 'vitest', 'pnpm test')).toContain(
      'has no node_modules: run `pnpm install --frozen-lockfile` in the repository first',
    );
    const tsc = project({ 'package.json': JSON.stringify({ devDependencies: { typescript: '5' } }), 'node_modules/.keep': '' });
    expect(await missingProgramFix(tsc, 'tsc', 'npm test')).toContain(
      "it is a dependency's program, not in node_modules/.bin: run `npm install` again",
    );
    const go = project({ 'go.mod': 'module m\n' });
    expect(await missingProgramFix(go, 'go', 'go test ./...')).toBe(
      "`go` was not found (exit 127) while `go test ./...` ran: install `go` on this machine (tests run with this machine's PATH, without network), or set test.command in .github/proofpr.yml to a command this machine has",
    );
  });
});

describe('corepackFailure', () => {
  const where = 'needed by `pnpm test`';
  it("a signature corepack cannot verify (each corepack's wording) names updating corepack, the exact version, the hash pin, and COREPACK_INTEGRITY_KEYS=0 last", () => {
    const dir = project({ 'package.json': JSON.stringify({ packageManager: 'pnpm@10.28.0+sha512.abc' }) });
    expect(pinnedSpec(dir, 'pnpm')).toBe('pnpm@10.28.0');
    expect(pinnedSpec(dir, 'yarn')).toBe('yarn');
    for (const out of [
      '/x/corepack.cjs:21999\n  if (!Array.isArray(signatures)) throw …\n\nError: No compatible signature found in package metadata\n    at verifySignature',
      'UsageError: The package was not signed by any trusted keys: {…}',
      'Error: Cannot find matching keyid: {"signatures":[…]}',
      'Error: Corepack cannot download the latest stable version of pnpm; you can disable signature verification by setting COREPACK_INTEGRITY_CHECK to 0',
    ]) {
      expect(isSignatureFailure(out)).toBe(true);
      const f = corepackFailure('pnpm', 'corepack pnpm --version', out, { cwd: dir, where });
      expect(f.signature).toBe(true);
      expect(f.detail).toMatch(
        /^pnpm is not installed and corepack could not provide it: corepack could not verify the signature of pnpm@10\.28\.0 \(`corepack pnpm --version`: /,
      );
      expect(f.fix.indexOf('npm install -g corepack@latest')).toBeLessThan(f.fix.indexOf('COREPACK_INTEGRITY_KEYS=0'));
      expect(f.fix).toContain('npm install -g pnpm@10.28.0');
    }
    const tls = [
      'Error: Error when performing the request to https://registry.example/pnpm/-/pnpm-9.0.0.tgz; for troubleshooting help, see the docs',
      '    at fetch (/x/corepack.cjs:1:1)',
      '    ... 4 lines matching cause stack trace ...',
      '  [cause]: TypeError: fetch failed',
      '      at node:internal/deps/undici',
      '    [cause]: Error: self-signed certificate in certificate chain',
      "      code: 'SELF_SIGNED_CERT_IN_CHAIN'",
    ].join('\n');
    expect(errorLine(tls)).toBe(
      'Error: Error when performing the request to https://registry.example/pnpm/-/pnpm-9.0.0.tgz; for troubleshooting help, see the docs; cause: self-signed certificate in certificate chain',
    );
    expect(isSignatureFailure(tls)).toBe(false);
    expect(errorLine('/x/corepack.cjs:1\n  code\n\nError: No compatible signature found in package metadata\n    at y')).toBe(
      'Error: No compatible signature found in package metadata',
    );
  });

  it('a download that failed (no network, a timeout) names corepack enable and setup.command, not the signature', () => {
    const dir = project({ 'package.json': '{}' });
    const f = corepackFailure('pnpm', 'corepack pnpm --version', 'Error: connect ECONNREFUSED 127.0.0.1:9', { cwd: dir, where });
    expect(f.signature).toBe(false);
    expect(f.detail).toBe(
      'pnpm is not installed and corepack could not provide it (`corepack pnpm --version`: Error: connect ECONNREFUSED 127.0.0.1:9)',
    );
    expect(f.fix).toMatch(/^run `corepack enable` on this machine .* \(needed by `pnpm test`\)$/);
    const t = corepackFailure('yarn', 'yarn --version', '', { cwd: dir, where, how: 'timed out after 120 s', shim: true });
    expect(t.detail).toBe(
      "yarn on PATH is corepack's shim (`corepack enable`), and it could not run (`yarn --version`: timed out after 120 s)",
    );
  });
});

describe("corepack's probe environment", () => {
  it("keeps the CA certificates a TLS-intercepting proxy needs and corepack's settings (COREPACK_INTEGRITY_KEYS), drops credentials", () => {
    const env = probeEnv({
      PATH: '/bin',
      NODE_EXTRA_CA_CERTS: '/etc/ca.pem',
      SSL_CERT_FILE: '/etc/ca.pem',
      COREPACK_INTEGRITY_KEYS: '0',
      COREPACK_HOME: '/c',
      COREPACK_NPM_TOKEN: 'secret-token',
      ANTHROPIC_API_KEY: 'sk-ant-x',
      HTTPS_PROXY: 'http://proxy:3128',
      OTHER: 'x',
    });
    expect(env).toEqual({
      PATH: '/bin',
      NODE_EXTRA_CA_CERTS: '/etc/ca.pem',
      SSL_CERT_FILE: '/etc/ca.pem',
      COREPACK_INTEGRITY_KEYS: '0',
      COREPACK_HOME: '/c',
      HTTPS_PROXY: 'http://proxy:3128',
      COREPACK_ENABLE_DOWNLOAD_PROMPT: '0',
      COREPACK_ENABLE_AUTO_PIN: '0',
    });
  });
});
