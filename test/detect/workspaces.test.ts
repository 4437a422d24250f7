/**
 * Workspace monorepos whose root package.json has no scripts.test: detection finds the workspaces that
 * hold tests and proposes the package manager's own way to run them; a command with a workspace
 * selector is read against that workspace's package.json (npm -w, pnpm --filter / -r, yarn workspace,
 * yarn workspaces foreach), following `npm run x` chains and wrappers to the runner.
 */
import { describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { detectCommands } from '../../src/detect/detect-commands.js';
import { commandScriptTargets, parseScriptCall, scriptTargets } from '../../src/detect/script-call.js';
import { commandSegments } from '../../src/detect/shell-words.js';
import { traceRunners } from '../../src/detect/test-runner.js';
import { readWorkspaces } from '../../src/detect/workspaces.js';
import { tempProject, type FileContent } from '../kit/verify-files.js';

/** A temp repository holding these files (an object is written as JSON). */
const repo = (files: Record<string, FileContent>) => tempProject(files, 'proofpr-ws-');

const words = (c: string): string[] => commandSegments(c)[0] ?? [];

describe('detectCommands - workspaces', () => {
  it('npm: a root without scripts.test and one workspace with tests → npm test -w <folder>, reading that package.json', async () => {
    const root = repo({
      'package.json': { name: 'mono', private: true, workspaces: ['packages/*'], devDependencies: { typescript: '5' } },
      'package-lock.json': '{}',
      'packages/core/package.json': { name: '@m/core', scripts: { test: 'cross-env NODE_ENV=test vitest run' } },
      'packages/docs/package.json': { name: '@m/docs', scripts: { build: 'tsc' } },
    });
    const d = await detectCommands(root);
    expect(d.test).toMatchObject({ command: 'npm test -w packages/core', runner: 'vitest' });
    expect(d.test?.why).toContain('the root package.json has no scripts.test');
    expect(d.test?.why).toContain('packages/core');
    expect(d.test?.why).toContain('package.json workspaces');
    expect(d.test?.why).toContain('packages/core/package.json scripts.test');
    expect(d.setup).toMatchObject({ command: 'npm ci' });
  });

  it('npm: several workspaces with tests → npm test --workspaces --if-present; { packages } form too', async () => {
    const root = repo({
      'package.json': {
        name: 'mono',
        workspaces: { packages: ['libs/*', 'app'] },
        scripts: { test: 'echo "Error: no test specified" && exit 1' },
      },
      'libs/a/package.json': { name: 'a', scripts: { test: 'jest' } },
      'libs/b/package.json': { name: 'b', scripts: { test: 'npm run test:unit', 'test:unit': 'c8 --reporter=text jest --ci' } },
      'app/package.json': { name: 'app', scripts: { start: 'node .' } },
    });
    const d = await detectCommands(root);
    expect(d.test).toMatchObject({ command: 'npm test --workspaces --if-present', runner: 'jest' });
    expect(d.test?.why).toContain('libs/a, libs/b');
  });

  it('pnpm: pnpm-workspace.yaml, one package with tests → pnpm --filter <name> test; two → pnpm -r test', async () => {
    const files = {
      'package.json': { name: 'mono', private: true, devDependencies: { typescript: '5' } },
      'pnpm-lock.yaml': "lockfileVersion: '9.0'\n",
      'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n  - '!packages/skip'\n",
      'packages/lib/package.json': { name: '@m/lib', scripts: { test: 'tsc --noEmit && mocha' } },
      'packages/skip/package.json': { name: 'skip', scripts: { test: 'jest' } },
    };
    const one = await detectCommands(repo(files));
    expect(one.test).toMatchObject({ command: 'pnpm --filter @m/lib test', runner: 'mocha' });
    expect(one.test?.why).toContain('pnpm-workspace.yaml');
    expect(one.setup).toMatchObject({ command: 'pnpm install --frozen-lockfile', tool: 'pnpm' });
    const two = await detectCommands(repo({ ...files, 'packages/ui/package.json': { name: 'ui', scripts: { test: 'vitest' } } }));
    expect(two.test?.command).toBe('pnpm -r test');
    expect(two.test?.runner).toBeUndefined(); // two runners: none is named as the one
    expect(two.test?.why).toContain('mocha and vitest');
  });

  it('yarn berry: workspaces with tests → yarn workspaces foreach -A run test; one → yarn workspace <name> test', async () => {
    const files = {
      'package.json': { name: 'mono', private: true, packageManager: 'yarn@4.1.0', workspaces: ['packages/*'] },
      'yarn.lock': '__metadata:\n  version: 8\n',
      '.yarnrc.yml': 'nodeLinker: node-modules\n',
      'packages/a/package.json': { name: 'a', scripts: { test: 'node --test' } },
    };
    const one = await detectCommands(repo(files));
    expect(one.test).toMatchObject({ command: 'yarn workspace a test', runner: 'node:test' });
    expect(one.setup).toMatchObject({ command: 'yarn install --immutable', tool: 'yarn-berry' });
    const two = await detectCommands(repo({ ...files, 'packages/b/package.json': { name: 'b', scripts: { test: 'node --test' } } }));
    expect(two.test).toMatchObject({ command: 'yarn workspaces foreach -A run test', runner: 'node:test' });
  });

  it('workspaces without any test script: nothing detected, the note says what was looked at', async () => {
    const d = await detectCommands(
      repo({ 'package.json': { name: 'm', workspaces: ['packages/*'] }, 'packages/a/package.json': { name: 'a' } }),
    );
    expect(d.test).toBeUndefined();
    expect(d.notes.join(' ')).toContain('no workspace (1 from package.json workspaces: packages/*) has a scripts.test');
  });

  it('a root scripts.test wins over the workspaces', async () => {
    const d = await detectCommands(
      repo({
        'package.json': { name: 'm', workspaces: ['packages/*'], scripts: { test: 'jest' } },
        'packages/a/package.json': { name: 'a', scripts: { test: 'vitest' } },
      }),
    );
    expect(d.test).toMatchObject({ command: 'npm test', runner: 'jest' });
  });
});

describe('script calls read the right manifest', () => {
  const mono = () =>
    repo({
      'package.json': { name: 'mono', workspaces: ['packages/*'], scripts: { test: 'echo root' } },
      'pnpm-workspace.yaml': 'packages: [packages/*]\n',
      'packages/x/package.json': { name: '@m/x', scripts: { test: 'npm run unit', unit: 'dotenv -e .env.test -- jest --ci' } },
      'packages/y/package.json': { name: 'y', scripts: { test: 'ava' } },
    });

  it('npm test -w packages/x reads packages/x/package.json and follows npm run unit through dotenv to jest', async () => {
    const root = mono();
    const call = parseScriptCall(words('npm test -w packages/x'));
    expect(call).toEqual({ pm: 'npm', script: 'test', scope: { kind: 'select', selectors: ['packages/x'] } });
    const t = await scriptTargets(root, call!);
    expect(t.map((x) => [x.file, x.body])).toEqual([['packages/x/package.json', 'npm run unit']]);
    const trace = await traceRunners(root, 'npm test -w packages/x');
    expect(trace.runners).toEqual(['jest']);
    expect(trace.steps).toEqual([
      'packages/x/package.json scripts.test: npm run unit',
      'packages/x/package.json scripts.unit: dotenv -e .env.test -- jest --ci',
    ]);
  });

  it.each([
    ['npm run test --workspace=@m/x', ['jest']],
    ['npm test --workspaces', ['jest', 'ava']],
    ['npm test', []],
    ['pnpm --filter @m/x test', ['jest']],
    ['pnpm -F ./packages/y run test', ['ava']],
    ['pnpm -r test', ['jest', 'ava']],
    ['yarn workspace y test', ['ava']],
    ['yarn workspace @m/x run test', ['jest']],
    ['yarn workspaces foreach -A run test', ['jest', 'ava']],
    ['yarn workspaces foreach --all --include y run test', ['ava']],
    ['CI=1 npm test -w packages/y -- --verbose', ['ava']],
  ])('%s → %j', async (command, runners) => {
    expect((await traceRunners(mono(), command)).runners).toEqual(runners);
  });

  it('readWorkspaces: pnpm-workspace.yaml wins, folders without package.json are left out', async () => {
    const root = mono();
    mkdirSync(join(root, 'packages', 'empty'));
    const ws = await readWorkspaces(root);
    expect(ws?.from).toBe('pnpm-workspace.yaml');
    expect(ws?.packages.map((p) => p.dir)).toEqual(['packages/x', 'packages/y']);
  });

  it('runners through wrappers, node paths and devDependencies', async () => {
    const root = repo({
      'package.json': {
        name: 'p',
        scripts: {
          test: 'tsc --noEmit && npm run test:unit',
          'test:unit': 'NODE_OPTIONS=--experimental-vm-modules node node_modules/jest/bin/jest.js',
          e2e: 'nyc -r lcov mocha',
        },
        devDependencies: { vitest: '1' },
      },
    });
    expect((await traceRunners(root, 'npm test')).runners).toEqual(['jest']);
    expect((await traceRunners(root, 'npm run e2e')).runners).toEqual(['mocha']);
    const byDeps = await traceRunners(root, 'npm run missing');
    expect(byDeps).toMatchObject({ runners: ['vitest'], fromDependencies: true });
    expect((await traceRunners(root, 'npx playwright test')).runners).toEqual(['playwright']);
  });
});

describe('commandScriptTargets', () => {
  it('one script call → its manifests; a list or a direct runner → undefined', async () => {
    const root = repo({
      'package.json': { name: 'mono', workspaces: ['packages/*'] },
      'packages/x/package.json': { name: '@m/x', scripts: { test: 'jest' } },
    });
    const r = await commandScriptTargets(root, 'CI=1 npm test -w packages/x');
    expect(r?.targets.map((t) => [t.file, t.body])).toEqual([['packages/x/package.json', 'jest']]);
    expect(await commandScriptTargets(root, 'tsc && npm test -w packages/x')).toBeUndefined();
    expect(await commandScriptTargets(root, 'npx jest')).toBeUndefined();
  });
});
