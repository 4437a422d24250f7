import { symlinkSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { loadBashParser } from '../../src/agent/permissions/bash-parser.js';
import { runBaseline } from '../../src/agent/verification/baseline.js';
import { harnessTestRun } from '../../src/agent/verification/harness-run.js';
import { planReport } from '../../src/agent/verification/runners/plan-report.js';
import { makeExec } from '../hooks/helpers.js';
import { makeRepo, write } from './git-repo.js';

const plan = async (command: string, files: Record<string, string> = {}) => {
  const { root } = makeRepo({ 'README.md': 'x\n', ...files });
  return planReport(await loadBashParser(), command, root, '/r/x.report', '/r');
};

describe('planReport - how the harness asks each runner for its report', () => {
  it('direct calls get the report flags, environment or stream', async () => {
    expect(await plan('npx jest --ci')).toMatchObject({ ok: true, command: 'npx jest --ci --json --outputFile=/r/x.report' });
    expect(await plan('vitest run')).toMatchObject({
      ok: true,
      command: 'vitest run --reporter=default --reporter=json --outputFile.json=/r/x.report',
    });
    expect(await plan('mocha')).toMatchObject({
      ok: true,
      command: 'mocha --reporter /r/proofpr-mocha-reporter.cjs',
      env: { PROOFPR_MOCHA_REPORT: '/r/x.report' },
    });
    expect(await plan('node --test')).toMatchObject({
      ok: true,
      command: 'node --test',
      env: { NODE_OPTIONS: expect.stringContaining('--test-reporter-destination=/r/x.report') },
    });
    expect(await plan('ava')).toMatchObject({ ok: true, command: 'ava --tap > /r/x.report' });
    expect(await plan('tap')).toMatchObject({ ok: true, command: 'tap --reporter=tap > /r/x.report' });
    expect(await plan('jasmine')).toMatchObject({
      ok: true,
      command: 'jasmine --reporter=/r/proofpr-jasmine-reporter.cjs',
      env: { PROOFPR_JASMINE_REPORT: '/r/x.report' },
    });
    expect(await plan('npx playwright test')).toMatchObject({ ok: true, env: { PLAYWRIGHT_JSON_OUTPUT_NAME: '/r/x.report' } });
    expect(await plan('python3 -m pytest -q')).toMatchObject({
      ok: true,
      command: 'python3 -m pytest -q --junitxml=/r/x.report -o junit_family=xunit2',
    });
    expect(await plan('python -m unittest discover')).toMatchObject({ ok: true, command: 'python -m unittest discover -v 2> /r/x.report' });
    expect(await plan('go test ./...')).toMatchObject({ ok: true, command: 'go test -json ./... > /r/x.report' });
    expect(await plan('cargo test')).toMatchObject({ ok: true, command: 'cargo test --no-fail-fast > /r/x.report 2>&1' });
  });

  it('npm/pnpm/yarn scripts that are one runner call: flags after -- (npm) or the script name', async () => {
    const pkg = { 'package.json': JSON.stringify({ scripts: { test: 'jest --ci', unit: 'vitest run', both: 'jest && eslint .' } }) };
    expect(await plan('npm test', pkg)).toMatchObject({
      ok: true,
      command: 'npm test -- --json --outputFile=/r/x.report',
      via: 'package.json script "test": jest --ci',
    });
    expect(await plan('npm test -- --runInBand', pkg)).toMatchObject({
      ok: true,
      command: 'npm test -- --runInBand --json --outputFile=/r/x.report',
    });
    expect(await plan('pnpm run unit', pkg)).toMatchObject({
      ok: true,
      command: 'pnpm run unit --reporter=default --reporter=json --outputFile.json=/r/x.report',
    });
    expect(await plan('yarn test', pkg)).toMatchObject({ ok: true, command: 'yarn test --json --outputFile=/r/x.report' });
    const both = await plan('npm run both', pkg);
    expect(both).toMatchObject({ ok: false });
    expect(!both.ok && both.reason).toContain('not one call of a test runner');
  });

  it('lists, pipelines, redirects, subshells and unknown programs are not asked (the fallback says why)', async () => {
    for (const c of ['npx jest; true', 'npx jest | tail', 'npx jest > out.txt', '(npx jest)', 'make test', 'npx jest $ARGS']) {
      const p = await plan(c);
      expect(p.ok).toBe(false);
      expect(!p.ok && p.reason).toContain('test.report');
    }
  });
});

describe('harnessTestRun and runBaseline - counts and ids from the runner only', () => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const d of disposers.splice(0)) await d();
  });

  const NODE_TESTS = `import { test } from 'node:test';
import assert from 'node:assert';
import { add } from '../src/math.mjs';
test('adds', () => { assert.strictEqual(add(1, 2), 3); });
test('adds more', () => { assert.strictEqual(add(2, 2), 4); });
test('prints a fake summary', () => { console.log('# tests 50\\n# pass 50\\nok 49 - fake'); });
`;

  it('node --test in the sandbox: exact counts and ids; what the tests print is not counted', async () => {
    const { root } = makeRepo({ 'src/math.mjs': 'export const add = (a, b) => a + b;\n', 'test/math.test.mjs': NODE_TESTS });
    const { exec, tmp, dispose } = await makeExec(root, 'auto');
    disposers.push(dispose);
    const config = parseRepoConfig('test:\n  command: node --test\n');
    const { run } = await harnessTestRun({ cwd: root, command: 'node --test', config, exec, scratchDir: tmp, kind: 'final', treeHash: '' });
    expect(run).toMatchObject({
      source: 'junit',
      runner: 'node-test',
      by: 'harness',
      kind: 'final',
      exitCode: 0,
      counts: { passed: 3, failed: 0, skipped: 0, total: 3 },
    });
    expect(run.tests?.map((t) => t.id).sort()).toEqual(['adds', 'adds more', 'prints a fake summary']);
  });

  it('a command that is not one runner call has unknown counts, even when it prints a summary', async () => {
    const { root } = makeRepo({ 'src/math.mjs': 'export const add = (a, b) => a + b;\n', 'test/math.test.mjs': NODE_TESTS });
    const { exec, tmp, dispose } = await makeExec(root);
    disposers.push(dispose);
    const command = 'node --test && printf "# tests 9\\n# pass 9\\n"';
    const { run } = await harnessTestRun({
      cwd: root,
      command,
      config: parseRepoConfig(`test:\n  command: ${JSON.stringify(command)}\n`),
      exec,
      scratchDir: tmp,
      kind: 'final',
      treeHash: '',
    });
    expect(run.counts).toBeNull();
    expect(run.note).toContain('not one simple command');
  });

  it('jest through an npm script: per-test ids from --json', async () => {
    const { root } = makeRepo({
      'package.json': JSON.stringify({ name: 'p', scripts: { test: 'jest --ci' } }),
      'math.js': 'exports.add = (a, b) => a + b;\n',
      'math.test.js':
        "const { add } = require('./math');\ntest('adds', () => expect(add(1, 2)).toBe(3));\ntest('is wrong', () => expect(add(1, 1)).toBe(3));\n",
    });
    symlinkSync(resolve('node_modules'), `${root}/node_modules`);
    const { exec, tmp, dispose } = await makeExec(root);
    disposers.push(dispose);
    const { run } = await harnessTestRun({
      cwd: root,
      command: 'npm test',
      config: parseRepoConfig('test:\n  command: npm test\n'),
      exec,
      scratchDir: tmp,
      kind: 'final',
      treeHash: '',
    });
    expect(run).toMatchObject({ source: 'jest-json', runner: 'jest', counts: { passed: 1, failed: 1, total: 2 } });
    expect(run.tests).toEqual(expect.arrayContaining([{ id: 'math.test.js > is wrong', outcome: 'failed', file: 'math.test.js' }]));
  });

  it('runBaseline: a clean checkout of the base commit (an untracked file is not there), failing ids', async () => {
    const { root, baseSha } = makeRepo({
      'src/math.mjs': 'export const add = (a, b) => a - b;\n',
      'test/math.test.mjs':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../src/math.mjs';\ntest('adds', () => { assert.strictEqual(add(1, 2), 3); });\ntest('zero', () => { assert.strictEqual(add(0, 0), 0); });\n",
    });
    write(root, 'test/extra.test.mjs', "import { test } from 'node:test';\ntest('untracked', () => {});\n");
    const { exec, tmp, dispose } = await makeExec(root, 'auto');
    disposers.push(dispose);
    const b = await runBaseline({ root, baseSha, config: parseRepoConfig('test:\n  command: node --test\n'), exec, scratchDir: tmp });
    expect(b).toMatchObject({ countsKnown: true, executed: 2, failingIds: ['adds'], counts: { passed: 1, failed: 1 } });
    expect(b.run).toMatchObject({ kind: 'baseline', commit: baseSha });
    expect(b.tests.map((t) => t.id)).not.toContain('untracked');
  });
});
