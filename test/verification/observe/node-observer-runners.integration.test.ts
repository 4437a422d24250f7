import { describe, expect, it, jest } from '@jest/globals';
import { ARGV_CHECK, baseEnv, ids, JEST_MATH, MOCHA_SPEC, observe, project, run, steady, summary } from './node-observe-kit.js';

// Real runners on a shared machine: a run can take tens of seconds.
jest.setTimeout(180_000);

const FAILING_SPEC = `const assert = require('assert');
describe('sub', () => {
  it('subtracts', () => assert.strictEqual(3 - 1, 2));
  it('is wrong', () => assert.strictEqual(3 - 1, 1));
});
`;

const NODE_TEST = (name: string) =>
  `const test = require('node:test');\nconst assert = require('node:assert');\ntest('${name}', () => assert.ok(true));\n`;

describe('node observer: mocha (in-process: argv untouched)', () => {
  it('through npm test calling npm run testonly: the tests see the plain argv, per-test ids', () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'm', scripts: { test: 'npm run testonly', testonly: 'mocha' } }),
      'test/add.spec.js': MOCHA_SPEC,
      'test/argv.spec.js': `${ARGV_CHECK}const assert = require('assert');\nit('sees the plain argv', () => { const s = seen(); assert.deepStrictEqual(s.now, s.plain); });\n`,
    });
    expect(run(root, 'npm test', baseEnv({ RECORD_ARGV: '1' })).code).toBe(0);
    const o = observe(root, 'npm test');
    expect(summary(o)).toEqual({
      code: 0,
      runners: ['mocha'],
      tests: [
        'passed test/add.spec.js > add adds',
        'passed test/argv.spec.js > sees the plain argv',
        'skipped test/add.spec.js > add later',
      ],
    });
  });

  it('a failing run: report written, exit status and output the same as without the observer', () => {
    const root = project({ 'package.json': JSON.stringify({ name: 'm' }), 'test/sub.spec.js': FAILING_SPEC });
    const plain = run(root, 'npx mocha', baseEnv());
    const o = observe(root, 'npx mocha');
    expect(plain.code).toBe(1);
    expect(o.code).toBe(1);
    expect(steady(o.stdout)).toBe(steady(plain.stdout));
    expect(steady(o.stderr)).toBe(steady(plain.stderr));
    expect(o.reports[0]?.report?.counts).toEqual({ passed: 1, failed: 1, skipped: 0, total: 2 });
    expect(ids(o.reports[0]?.report)).toEqual(['failed test/sub.spec.js > sub is wrong', 'passed test/sub.spec.js > sub subtracts']);
  });

  it('a spec file that throws while mocha loads it (an ESM import the code does not export): that file is one failed test', () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'm' }),
      'lib.mjs': 'export const add = (a, b) => a + b;\n',
      'test/add.spec.mjs':
        "import assert from 'node:assert';\nimport { add } from '../lib.mjs';\nit('adds', () => assert.strictEqual(add(1, 2), 3));\n",
      'test/sub.spec.mjs':
        "import assert from 'node:assert';\nimport { sub } from '../lib.mjs';\nit('subtracts', () => assert.strictEqual(sub(3, 1), 2));\n",
    });
    const plain = run(root, 'npx mocha test/*.spec.mjs', baseEnv());
    const o = observe(root, 'npx mocha test/*.spec.mjs');
    expect(plain.code).not.toBe(0);
    expect(o.code).toBe(plain.code);
    expect(steady(o.stderr)).toBe(steady(plain.stderr));
    expect(o.reports.map((r) => r.runner)).toEqual(['mocha']);
    expect(ids(o.reports[0]?.report)).toEqual(['failed test/sub.spec.mjs > [build failed]']);
  });

  it('under coverage wrappers: c8 mocha and nyc mocha', () => {
    const root = project({ 'package.json': JSON.stringify({ name: 'm' }), 'test/add.spec.js': MOCHA_SPEC });
    for (const command of ['npx c8 mocha', 'npx nyc mocha']) {
      const o = observe(root, command);
      expect({ command, code: o.code, runners: o.reports.map((r) => r.runner) }).toEqual({ command, code: 0, runners: ['mocha'] });
      expect(ids(o.reports[0]?.report)).toEqual(['passed test/add.spec.js > add adds', 'skipped test/add.spec.js > add later']);
    }
  });

  it('parallel mode (workers are child processes): the events re-emitted in the main process are collected', () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'm' }),
      'test/add.spec.js': MOCHA_SPEC,
      'test/sub.spec.js': FAILING_SPEC,
    });
    const o = observe(root, 'npx mocha --parallel --jobs 2');
    expect(summary(o)).toMatchObject({ code: 1, runners: ['mocha'] });
    expect(o.reports[0]?.report?.counts).toEqual({ passed: 2, failed: 1, skipped: 1, total: 4 });
  });

  it('with node flags (mocha re-executes itself as a child process): one report, from the child', () => {
    const root = project({ 'package.json': JSON.stringify({ name: 'm' }), 'test/add.spec.js': MOCHA_SPEC });
    const o = observe(root, 'npx mocha --expose-gc');
    expect(summary(o)).toMatchObject({ code: 0, runners: ['mocha'] });
    expect(o.reports[0]?.report?.counts.total).toBe(2);
  });

  it('runners started by the tests themselves (fixtures) write no report: only the outer run counts', () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'm' }),
      'fixture/inner.spec.js': MOCHA_SPEC,
      'fixture/nt.js': NODE_TEST('inner node test'),
      'test/outer.spec.js':
        "const { execSync } = require('child_process');\n" +
        "it('runs fixtures', function () {\n" +
        '  this.timeout(120000);\n' +
        "  execSync('npx mocha fixture/inner.spec.js', { stdio: 'ignore' });\n" +
        "  execSync('node --test fixture/nt.js', { stdio: 'ignore' });\n" +
        '});\n',
    });
    const o = observe(root, 'npx mocha');
    expect(summary(o)).toEqual({ code: 0, runners: ['mocha'], tests: ['passed test/outer.spec.js > runs fixtures'] });
  });

  it('a workspace script (npm test -w packages/x, with its pretest)', () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'w', private: true, workspaces: ['packages/*'] }),
      'packages/x/package.json': JSON.stringify({ name: 'x', version: '1.0.0', scripts: { pretest: 'echo pre-x', test: 'mocha' } }),
      'packages/x/test/add.spec.js': MOCHA_SPEC,
    });
    const o = observe(root, 'npm test -w packages/x');
    expect(o.code).toBe(0);
    expect(o.stdout).toContain('pre-x');
    expect(ids(o.reports[0]?.report)).toEqual([
      'passed packages/x/test/add.spec.js > add adds',
      'skipped packages/x/test/add.spec.js > add later',
    ]);
  });
});

describe('node observer: several runner calls in one command', () => {
  it('jest && mocha && node --test: one report per call, each parsed by its runner', () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'p', jest: { testMatch: ['**/unit/**/*.test.js'] } }),
      'unit/math.test.js': JEST_MATH['math.test.js'].replace("'./math'", "'../math'"),
      'math.js': JEST_MATH['math.js'],
      'test/add.spec.js': MOCHA_SPEC,
      'nt/a.test.js': NODE_TEST('node one'),
    });
    const o = observe(root, 'npx jest --ci; npx mocha && node --test nt/a.test.js');
    expect(o.code).toBe(0);
    expect(o.reports.map((r) => r.runner).sort()).toEqual(['jest', 'mocha', 'node-test']);
    const by = (n: string) => o.reports.find((r) => r.runner === n)?.report;
    expect(ids(by('jest'))).toEqual(['failed unit/math.test.js > is wrong', 'passed unit/math.test.js > adds']);
    expect(by('mocha')?.counts.total).toBe(2);
    expect(ids(by('node-test'))).toEqual(['passed node one']);
  });

  it('two node --test calls write two reports (no shared junit destination)', () => {
    const root = project({ 'a.test.js': NODE_TEST('first'), 'b.test.js': NODE_TEST('second') });
    const o = observe(root, 'node --test a.test.js && node --test b.test.js');
    expect(o.code).toBe(0);
    expect(o.stdout).toContain('first');
    expect(o.reports.map((r) => ids(r.report)).sort()).toEqual([['passed first'], ['passed second']]);
  });
});

describe('node observer: jasmine (in-process: a reporter added, argv untouched)', () => {
  it('through npm test: every spec with its file and outcome', () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'j', scripts: { test: 'jasmine' } }),
      'spec/support/jasmine.json': JSON.stringify({ spec_dir: 'spec', spec_files: ['**/*[sS]pec.js'] }),
      'spec/calc.spec.js':
        "describe('calc', () => {\n  it('adds', () => expect(1 + 1).toBe(2));\n  it('is wrong', () => expect(1).toBe(3));\n  xit('later', () => {});\n});\n",
    });
    const o = observe(root, 'npm test');
    expect(o.code).not.toBe(0);
    expect(ids(o.reports[0]?.report)).toEqual([
      'failed spec/calc.spec.js > calc is wrong',
      'passed spec/calc.spec.js > calc adds',
      'skipped spec/calc.spec.js > calc later',
    ]);
  });
});

describe('node observer: ava (tests in workers: --tap added to the main argv, stdout copied)', () => {
  it('through npm test: every test with its outcome, the tests see no harness argv, exit status kept', () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'a', type: 'module', scripts: { test: 'ava' } }),
      'a.test.js':
        "import test from 'ava';\n" +
        "test('argv is clean', (t) => { t.false(process.argv.includes('--tap')); });\n" +
        "test('is wrong', (t) => { t.is(1, 2); });\n" +
        "test.skip('later', (t) => { t.pass(); });\n",
    });
    const o = observe(root, 'npm test');
    expect(summary(o)).toEqual({ code: 1, runners: ['ava'], tests: ['failed is wrong', 'passed argv is clean', 'skipped later'] });
  });
});
