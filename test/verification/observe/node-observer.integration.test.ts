import { describe, expect, it, jest } from '@jest/globals';
import { nodeObserver, nodeOptionsWord } from '../../../src/agent/verification/test-results/observe/node-observer.js';
import { ARGV_CHECK, baseEnv, ids, JEST_MATH, observe, project, run, summary } from './node-observe-kit.js';

// Real runners on a shared machine: a run can take tens of seconds.
jest.setTimeout(180_000);

describe('node observer: environment only', () => {
  it('appends to the NODE_OPTIONS the command would get, quoting paths with spaces; writes its files under dir', () => {
    const env = nodeObserver.env('/x/obs dir', { NODE_OPTIONS: '--max-old-space-size=100' });
    expect(Object.keys(env)).toEqual(['NODE_OPTIONS']);
    expect(env.NODE_OPTIONS).toMatch(/^--max-old-space-size=100 --require "\/x\/obs dir\/node\/proofpr-observer\.cjs" /);
    expect(env.NODE_OPTIONS).toContain('--test-reporter=spec --test-reporter-destination=stdout');
    expect(nodeObserver.env('/x/d', {}).NODE_OPTIONS).toMatch(/^--require \/x\/d\/node\/proofpr-observer\.cjs /);
    expect(nodeOptionsWord('a "b"\\c')).toBe('"a \\"b\\"\\\\c"');
    expect(nodeObserver.files('/x/d').map((f) => f.path)).toEqual([
      '/x/d/node/proofpr-observer.cjs',
      '/x/d/node/proofpr-node-test-reporter.mjs',
    ]);
  });

  it('a non-runner node process (and tsc): no report, the same output and exit status as without the observer', () => {
    const root = project({
      'tool.js': "console.log('args', process.argv.length); console.error('warn'); process.exitCode = 3;\n",
    });
    const command = 'node tool.js; echo rc=$?; npx tsc --version';
    const plain = run(root, command, baseEnv());
    const o = observe(root, command);
    expect(o.reports).toEqual([]);
    expect(o.code).toBe(plain.code);
    expect(o.stdout).toBe(plain.stdout);
    expect(o.stdout).toContain('rc=3');
    expect(o.stderr).toBe(plain.stderr);
  });
});

describe('node observer: jest (no argv change)', () => {
  it('a composite npm script (echo build && jest): the --json shape, per-test ids, exit status kept', () => {
    const root = project({ 'package.json': JSON.stringify({ name: 'p', scripts: { test: 'echo build && jest' } }), ...JEST_MATH });
    const o = observe(root, 'npm test');
    expect(o.code).toBe(1);
    expect(o.stdout).toContain('build');
    expect(o.reports.map((r) => r.runner)).toEqual(['jest']);
    expect(o.reports[0]?.report?.counts).toEqual({ passed: 1, failed: 1, skipped: 0, total: 2 });
    expect(ids(o.reports[0]?.report)).toEqual(['failed math.test.js > is wrong', 'passed math.test.js > adds']);
  });

  it('a multi-project config: one report with the tests of every project', () => {
    const project2 = (name: string) => ({ displayName: name, testMatch: [`<rootDir>/${name}/**/*.test.js`] });
    const root = project({
      'package.json': JSON.stringify({ name: 'p', jest: { projects: [project2('front'), project2('back')] } }),
      'front/f.test.js': "test('front works', () => {});\n",
      'back/b.test.js': "test('back works', () => {});\ntest.skip('back later', () => {});\n",
    });
    const o = observe(root, 'npx jest --ci');
    expect(summary(o)).toEqual({
      code: 0,
      runners: ['jest'],
      tests: ['passed back/b.test.js > back works', 'passed front/f.test.js > front works', 'skipped back/b.test.js > back later'],
    });
  });

  it('an in-band run (one test file) sees exactly the argv of the plain run', () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'p' }),
      'argv.test.js': `${ARGV_CHECK}test('sees the plain argv', () => { const s = seen(); expect(s.now).toEqual(s.plain); });\n`,
    });
    const plain = run(root, 'npx jest --ci', baseEnv({ RECORD_ARGV: '1' }));
    expect(plain.code).toBe(0);
    const o = observe(root, 'npx jest --ci');
    expect(summary(o)).toMatchObject({ code: 0, tests: ['passed argv.test.js > sees the plain argv'] });
  });
});

describe('node observer: vitest', () => {
  it('through npm test with a pretest script; the tests (in workers) see none of the harness words in argv', () => {
    const root = project({
      'package.json': JSON.stringify({
        name: 'v',
        type: 'module',
        scripts: { pretest: 'node -e "console.log(\'pretest ran\')"', test: 'vitest run' },
      }),
      'argv.test.js':
        "import { expect, test } from 'vitest';\n" +
        "test('argv is clean', () => { expect(process.argv.join(' ')).not.toMatch(/reporter|outputFile|proofpr|json/); });\n" +
        "test('is wrong', () => { expect(1).toBe(2); });\n",
    });
    const o = observe(root, 'npm test');
    expect(o.code).toBe(1);
    expect(o.stdout).toContain('pretest ran');
    expect(summary(o)).toMatchObject({
      runners: ['vitest'],
      tests: ['failed argv.test.js > is wrong', 'passed argv.test.js > argv is clean'],
    });
  });

  it('under a coverage wrapper (c8 vitest run)', () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'v', type: 'module' }),
      'a.test.js': "import { expect, test } from 'vitest';\ntest('one', () => { expect(1).toBe(1); });\n",
    });
    const o = observe(root, 'npx c8 vitest run');
    expect(summary(o)).toEqual({ code: 0, runners: ['vitest'], tests: ['passed a.test.js > one'] });
  });
});
