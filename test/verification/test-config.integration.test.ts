import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { gateDiff } from '../../src/agent/verification/gates/gate-diff.js';
import { isTestConfigPath, testConfigKept, testScripts } from '../../src/agent/verification/integrity/test-config.js';
import { changedRepo } from './git-repo.js';

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
  const BASE = {
    'package.json': PKG,
    'pyproject.toml': PYPROJECT,
    'jest.config.js': 'export default { testMatch: ["**/*.test.js"] };\n',
    'src/a.js': 'x\n',
  };
  const check = async (root: string, baseSha: string, cmd = 'npm test') =>
    testConfigKept(root, baseSha, await gateDiff(root, baseSha), cmd);
  /** The base repository with `changes` written over it, checked for `cmd`. */
  const judge = async (changes: Record<string, string>, cmd?: string) => {
    const { root, baseSha } = changedRepo(BASE, changes);
    return check(root, baseSha, cmd);
  };
  /** package.json as PKG, changed by `over`. */
  const pkg = (over: (p: { scripts: Record<string, string> } & Record<string, unknown>) => void) => {
    const p = JSON.parse(PKG) as { scripts: Record<string, string> } & Record<string, unknown>;
    over(p);
    return { 'package.json': JSON.stringify(p, null, 2) };
  };

  it('test config - honest changes (version bump, a build script, another pyproject section) pass', async () => {
    const r = await judge({
      ...pkg((p) => {
        p.version = '1.0.1';
        p.scripts.build = 'tsc -p .';
        p.dependencies = { left: '1.0.0' };
      }),
      'pyproject.toml': PYPROJECT.replace('line-length = 100', 'line-length = 120'),
    });
    expect(r).toMatchObject({ passed: true, changed: [] });
    expect(r.detail).toContain('2 config file(s) changed; no test script or test runner setting changed');
  });

  it('test config - a changed scripts.test fails and says to revert it', async () => {
    const r = await judge(pkg((p) => (p.scripts.test = 'node --test test/one.test.js')));
    expect(r.passed).toBe(false);
    expect(r.changed).toEqual(['package.json']);
    expect(r.detail).toContain('package.json: scripts.test changed');
    expect(r.detail).toContain('Revert these changes');
  });

  it('test config - an added pretest/posttest script and a changed jest key fail', async () => {
    const r = await judge(
      pkg((p) => {
        p.scripts.posttest = 'echo "Tests: 99 passed, 99 total"';
        p.jest = { testMatch: ['**/none/*.js'] };
      }),
    );
    expect(r.detail).toContain('package.json: jest, scripts.posttest changed');
  });

  it('test config - the script named by `npm run X` is watched', async () => {
    const { root, baseSha } = changedRepo(
      BASE,
      pkg((p) => (p.scripts['test:unit'] = 'jest unit --testPathIgnorePatterns=slow')),
    );
    expect((await check(root, baseSha, 'npm test')).passed).toBe(true);
    expect((await check(root, baseSha, 'npm run test:unit')).detail).toContain('scripts.test:unit changed');
  });

  it('test config - runner config files added, changed or deleted fail', async () => {
    const { root, baseSha } = changedRepo(BASE, {
      'jest.config.js': 'export default { testMatch: [] };\n',
      'packages/web/vitest.config.ts': 'export default {};\n',
      '.mocharc.yml': 'spec: none\n',
    });
    const r = await check(root, baseSha);
    expect(r.changed.sort()).toEqual(['.mocharc.yml', 'jest.config.js', 'packages/web/vitest.config.ts']);
    expect(r.detail).toContain('jest.config.js: test runner config changed');
    expect(r.detail).toContain('.mocharc.yml: test runner config added');
    unlinkSync(join(root, 'jest.config.js'));
    expect((await check(root, baseSha)).detail).toContain('jest.config.js: test runner config deleted');
  });

  it('test config - the pytest section of pyproject.toml and a new pytest.ini fail', async () => {
    const r = await judge(
      {
        'pyproject.toml': PYPROJECT.replace('testpaths = ["tests"]', 'testpaths = ["tests/smoke"]'),
        'pytest.ini': '[pytest]\naddopts = -k nothing\n',
      },
      'pytest',
    );
    expect(r.detail).toContain('pyproject.toml: the pytest section changed');
    expect(r.detail).toContain('pytest.ini: test runner config added');
  });

  it('test config - package.json that is no longer valid JSON fails', async () => {
    expect((await judge({ 'package.json': `${PKG.slice(0, -2)}` })).passed).toBe(false);
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
