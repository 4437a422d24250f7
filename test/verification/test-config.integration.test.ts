import { rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { gateDiff } from '../../src/agent/verification/gates/gate-diff.js';
import { isTestConfigPath, testConfigKept, testScripts } from '../../src/agent/verification/integrity/test-config.js';
import { makeRepo, write } from './git-repo.js';

const PKG = JSON.stringify(
  {
    name: 'demo',
    version: '1.0.0',
    scripts: { test: 'node --test', build: 'tsc', 'test:unit': 'jest unit' },
    jest: { testMatch: ['**/*.test.js'] },
  },
  null,
  2,
);
const PYPROJECT =
  '[project]\nname = "demo"\nversion = "1.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n\n[tool.ruff]\nline-length = 100\n';

describe('testConfigKept', () => {
  const roots: string[] = [];
  const repo = (extra: Record<string, string> = {}) => {
    const r = makeRepo({
      'package.json': PKG,
      'pyproject.toml': PYPROJECT,
      'jest.config.js': 'export default { testMatch: ["**/*.test.js"] };\n',
      'src/a.js': 'x\n',
      ...extra,
    });
    roots.push(r.root);
    return r;
  };
  afterEach(() => {
    for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
  });
  const check = async (root: string, baseSha: string, cmd = 'npm test') =>
    testConfigKept(root, baseSha, await gateDiff(root, baseSha), cmd);
  const pkg = (over: (p: Record<string, unknown>) => void) => {
    const p = JSON.parse(PKG) as Record<string, unknown>;
    over(p);
    return JSON.stringify(p, null, 2);
  };

  it('test config - honest changes (version bump, a build script, another pyproject section) pass', async () => {
    const { root, baseSha } = repo();
    write(
      root,
      'package.json',
      pkg((p) => {
        p.version = '1.0.1';
        (p.scripts as Record<string, string>).build = 'tsc -p .';
        p.dependencies = { left: '1.0.0' };
      }),
    );
    write(root, 'pyproject.toml', PYPROJECT.replace('line-length = 100', 'line-length = 120'));
    const r = await check(root, baseSha);
    expect(r).toMatchObject({ passed: true, changed: [] });
    expect(r.detail).toContain('2 config file(s) changed; no test script or test runner setting changed');
  });

  it('test config - a changed scripts.test fails and says to revert it', async () => {
    const { root, baseSha } = repo();
    write(
      root,
      'package.json',
      pkg((p) => ((p.scripts as Record<string, string>).test = 'node --test test/one.test.js')),
    );
    const r = await check(root, baseSha);
    expect(r.passed).toBe(false);
    expect(r.changed).toEqual(['package.json']);
    expect(r.detail).toContain('package.json: scripts.test changed');
    expect(r.detail).toContain('Revert these changes');
  });

  it('test config - an added pretest/posttest script and a changed jest key fail', async () => {
    const { root, baseSha } = repo();
    write(
      root,
      'package.json',
      pkg((p) => {
        (p.scripts as Record<string, string>).posttest = 'echo "Tests: 99 passed, 99 total"';
        p.jest = { testMatch: ['**/none/*.js'] };
      }),
    );
    const r = await check(root, baseSha);
    expect(r.detail).toContain('package.json: jest, scripts.posttest changed');
  });

  it('test config - the script named by `npm run X` is watched', async () => {
    const { root, baseSha } = repo();
    write(
      root,
      'package.json',
      pkg((p) => ((p.scripts as Record<string, string>)['test:unit'] = 'jest unit --testPathIgnorePatterns=slow')),
    );
    expect((await check(root, baseSha, 'npm test')).passed).toBe(true);
    expect((await check(root, baseSha, 'npm run test:unit')).detail).toContain('scripts.test:unit changed');
  });

  it('test config - runner config files added, changed or deleted fail', async () => {
    const { root, baseSha } = repo();
    write(root, 'jest.config.js', 'export default { testMatch: [] };\n');
    write(root, 'packages/web/vitest.config.ts', 'export default {};\n');
    write(root, '.mocharc.yml', 'spec: none\n');
    const r = await check(root, baseSha);
    expect(r.changed.sort()).toEqual(['.mocharc.yml', 'jest.config.js', 'packages/web/vitest.config.ts']);
    expect(r.detail).toContain('jest.config.js: test runner config changed');
    expect(r.detail).toContain('.mocharc.yml: test runner config added');
    unlinkSync(join(root, 'jest.config.js'));
    expect((await check(root, baseSha)).detail).toContain('jest.config.js: test runner config deleted');
  });

  it('test config - the pytest section of pyproject.toml and a new pytest.ini fail', async () => {
    const { root, baseSha } = repo();
    write(root, 'pyproject.toml', PYPROJECT.replace('testpaths = ["tests"]', 'testpaths = ["tests/smoke"]'));
    write(root, 'pytest.ini', '[pytest]\naddopts = -k nothing\n');
    const r = await check(root, baseSha, 'pytest');
    expect(r.detail).toContain('pyproject.toml: the pytest section changed');
    expect(r.detail).toContain('pytest.ini: test runner config added');
  });

  it('test config - package.json that is no longer valid JSON fails', async () => {
    const { root, baseSha } = repo();
    write(root, 'package.json', `${PKG.slice(0, -2)}`);
    expect((await check(root, baseSha)).passed).toBe(false);
  });

  it('test config - paths and scripts watched', () => {
    expect(isTestConfigPath('jest.config.ts')).toBe(true);
    expect(isTestConfigPath('a/b/.mocharc.json')).toBe(true);
    expect(isTestConfigPath('node_modules/x/package.json')).toBe(false);
    expect(isTestConfigPath('src/config.js')).toBe(false);
    expect(testScripts('npm test')).toEqual(['pretest', 'test', 'posttest']);
    expect(testScripts('pnpm run test:ci -- --runInBand')).toEqual(['pretest', 'test', 'posttest', 'pretest:ci', 'test:ci', 'posttest:ci']);
    expect(testScripts('yarn jest')).toContain('jest');
    expect(testScripts('pytest -q')).toEqual(['pretest', 'test', 'posttest']);
  });
});
