import { describe, it, expect } from '@jest/globals';
import { detectCommands } from '../../src/detect/detect-commands.js';
import { resolveCommands } from '../../src/detect/resolve-commands.js';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { tempProject } from '../kit/verify-files.js';

/** What detection finds in a temp repository holding exactly these files. */
const detect = (files: Record<string, string>) => detectCommands(tempProject(files, 'proofpr-detect-'));

const pkg = (scripts: Record<string, string>, extra: object = { devDependencies: { x: '1' } }) =>
  JSON.stringify({ name: 'p', scripts, ...extra });

describe('detectCommands - node', () => {
  it('npm: package-lock.json gives npm ci and npm test, naming the runner scripts.test calls', async () => {
    const d = await detect({ 'package.json': pkg({ test: 'vitest run' }), 'package-lock.json': '{}' });
    expect(d.test).toEqual({ command: 'npm test', runner: 'vitest', why: expect.stringContaining('scripts.test runs vitest') });
    expect(d.test?.why).toContain('package-lock.json');
    expect(d.setup).toMatchObject({ command: 'npm ci', tool: 'npm' });
  });

  it.each<{ title: string; lock: Record<string, string>; script: string; test: object; setup: object }>([
    {
      title: 'pnpm: pnpm-lock.yaml gives pnpm install --frozen-lockfile and pnpm test',
      lock: { 'pnpm-lock.yaml': "lockfileVersion: '9.0'\n" },
      script: 'jest --ci',
      test: { command: 'pnpm test', runner: 'jest' },
      setup: { command: 'pnpm install --frozen-lockfile', tool: 'pnpm' },
    },
    {
      title: 'yarn classic: a yarn 1 lock file gives yarn install --frozen-lockfile',
      lock: { 'yarn.lock': '# yarn lockfile v1\n\nx@1:\n  version "1.0.0"\n' },
      script: 'mocha',
      test: { command: 'yarn test', runner: 'mocha' },
      setup: { command: 'yarn install --frozen-lockfile', tool: 'yarn-classic' },
    },
    {
      title: 'yarn berry: __metadata in yarn.lock gives yarn install --immutable',
      lock: { 'yarn.lock': '__metadata:\n  version: 8\n' },
      script: 'ava',
      test: { command: 'yarn test', runner: 'ava' },
      setup: { command: 'yarn install --immutable', tool: 'yarn-berry' },
    },
  ])('$title', async ({ lock, script, test, setup }) => {
    const d = await detect({ 'package.json': pkg({ test: script }), ...lock });
    expect(d.test).toMatchObject(test);
    expect(d.setup).toMatchObject(setup);
  });

  it('yarn berry: .yarnrc.yml or packageManager yarn@4 with a lock file', async () => {
    const a = await detect({ 'package.json': pkg({ test: 'tap' }), 'yarn.lock': '', '.yarnrc.yml': 'nodeLinker: node-modules\n' });
    expect(a.setup?.command).toBe('yarn install --immutable');
    expect(a.test?.runner).toBe('node-tap');
    const b = await detect({
      'package.json': pkg({ test: 'jasmine' }, { packageManager: 'yarn@4.1.0', dependencies: { a: '1' } }),
      'yarn.lock': '',
    });
    expect(b.setup?.command).toBe('yarn install --immutable');
  });

  it('follows one `npm run` hop to find the runner, and reads node --test', async () => {
    const d = await detect({
      'package.json': pkg({ test: 'npm run test:unit', 'test:unit': 'node --test test/' }),
      'package-lock.json': '{}',
    });
    expect(d.test).toMatchObject({ command: 'npm test', runner: 'node:test' });
  });

  it("npm's placeholder scripts.test is not a test command, and says so", async () => {
    const d = await detect({ 'package.json': pkg({ test: 'echo "Error: no test specified" && exit 1' }) });
    expect(d.test).toBeUndefined();
    expect(d.notes.join(' ')).toContain('placeholder');
  });

  it('no setup without dependencies; a note when dependencies have no lock file', async () => {
    const none = await detect({ 'package.json': pkg({ test: 'node --test' }, {}), 'package-lock.json': '{}' });
    expect(none.setup).toBeUndefined();
    const nolock = await detect({ 'package.json': pkg({ test: 'jest' }) });
    expect(nolock.setup).toBeUndefined();
    expect(nolock.notes.join(' ')).toContain('setup.command');
  });

  it('a bad package.json is a note, and the next project kind may still give the command', async () => {
    const d = await detect({ 'package.json': '{ nope', 'go.mod': 'module x\n\ngo 1.22\n' });
    expect(d.test?.command).toBe('go test ./...');
    expect(d.notes.join(' ')).toContain('does not parse');
  });
});

describe('detectCommands - python', () => {
  it('pytest configured in pyproject.toml', async () => {
    const d = await detect({ 'pyproject.toml': '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n' });
    expect(d.test).toMatchObject({ command: 'python3 -m pytest', runner: 'pytest', why: expect.stringContaining('pyproject.toml') });
  });

  it.each([
    ['pytest.ini', '[pytest]\n'],
    ['setup.cfg', '[metadata]\nname = x\n\n[tool:pytest]\ntestpaths = tests\n'],
    ['tox.ini', '[tox]\nenvlist = py3\n\n[pytest]\naddopts = -q\n'],
  ])('pytest configured in %s', async (file, text) => {
    const d = await detect({ [file]: text });
    expect(d.test?.command).toBe('python3 -m pytest');
    expect(d.test?.why).toContain(file);
  });

  it('test files that import pytest give pytest', async () => {
    const d = await detect({
      'setup.py': 'from setuptools import setup\nsetup()\n',
      'tests/test_a.py': 'import pytest\n\ndef test_a():\n    assert 1\n',
    });
    expect(d.test).toMatchObject({ command: 'python3 -m pytest', why: expect.stringContaining('tests/test_a.py imports pytest') });
  });

  it('unittest files: discovery, with -s tests when tests/ is not a package', async () => {
    const plain = await detect({ 'pyproject.toml': '[project]\nname = "x"\n', 'tests/test_a.py': 'import unittest\n' });
    expect(plain.test).toMatchObject({ command: 'python3 -m unittest discover -s tests', runner: 'unittest' });
    const pkgd = await detect({ 'setup.py': '', 'tests/__init__.py': '', 'tests/test_a.py': 'import unittest\n' });
    expect(pkgd.test?.command).toBe('python3 -m unittest discover');
    const top = await detect({ 'test_x.py': 'import unittest\n' });
    expect(top.test?.command).toBe('python3 -m unittest discover');
  });

  it('a Python project without test files gives no command and a note', async () => {
    const d = await detect({ 'pyproject.toml': '[project]\nname = "x"\n' });
    expect(d.test).toBeUndefined();
    expect(d.notes.join(' ')).toContain('no test_*.py');
  });
});

describe('detectCommands - go, cargo, make', () => {
  it('go.mod gives go test ./..., and go mod download when go.sum lists modules', async () => {
    const bare = await detect({ 'go.mod': 'module x\n' });
    expect(bare).toMatchObject({ test: { command: 'go test ./...', runner: 'go' } });
    expect(bare.setup).toBeUndefined();
    const deps = await detect({ 'go.mod': 'module x\n', 'go.sum': 'golang.org/x/text v0.3.0 h1:abc=\n' });
    expect(deps.setup?.command).toBe('go mod download');
  });

  it('Cargo.toml gives cargo test, and cargo fetch when it has dependencies', async () => {
    const d = await detect({ 'Cargo.toml': '[package]\nname = "x"\n\n[dependencies]\nserde = "1"\n' });
    expect(d.test).toMatchObject({ command: 'cargo test', runner: 'cargo' });
    expect(d.setup?.command).toBe('cargo fetch');
  });

  it('a Makefile test: target gives make test; one without gives a note', async () => {
    expect((await detect({ Makefile: 'all:\n\tcc x.c\n\ntest: all\n\t./run-tests\n' })).test?.command).toBe('make test');
    const none = await detect({ Makefile: 'all:\n\tcc x.c\n' });
    expect(none.test).toBeUndefined();
    expect(none.notes.join(' ')).toContain('no test: target');
  });

  it('a node project with a placeholder test falls through to the Makefile, keeping its own setup', async () => {
    const d = await detect({
      'package.json': pkg({ test: 'echo "Error: no test specified" && exit 1' }),
      'package-lock.json': '{}',
      Makefile: 'test:\n\tnode t.js\n',
    });
    expect(d.test?.command).toBe('make test');
    expect(d.setup?.command).toBe('npm ci');
  });

  it('an empty repository: nothing, no notes', async () => {
    expect(await detect({ 'README.md': '# x\n' })).toEqual({ notes: [] });
  });
});

describe('resolveCommands', () => {
  it('configured commands win and say so; missing ones come from detection', async () => {
    const detected = await detect({ 'package.json': pkg({ test: 'jest' }), 'package-lock.json': '{}' });
    const configured = resolveCommands(parseRepoConfig('test:\n  command: npm run test:ci\n'), detected);
    expect(configured.test).toEqual({ command: 'npm run test:ci', source: 'configured', why: 'test.command in .github/proofpr.yml' });
    expect(configured.setup).toMatchObject({ command: 'npm ci', source: 'detected' });
    expect(configured.config.setup.command).toBe('npm ci');
    const detectedOnly = resolveCommands(parseRepoConfig(undefined), detected);
    expect(detectedOnly.test).toMatchObject({ command: 'npm test', source: 'detected' });
    expect(detectedOnly.config.test.command).toBe('npm test');
    expect(detectedOnly.missing).toBeUndefined();
  });

  it('nothing detected: missing names the config key and what was looked at', async () => {
    const r = resolveCommands(parseRepoConfig(undefined), await detect({ 'package.json': pkg({}) }));
    expect(r.test).toBeUndefined();
    expect(r.missing).toContain('set test.command in .github/proofpr.yml');
    expect(r.missing).toContain('package.json has no scripts.test');
    expect(r.config.test.command).toBeUndefined();
  });
});
