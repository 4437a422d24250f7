/** JavaScript traps: jest, vitest, mocha, node:test. Each turns the suite green with the money bug left in. */
import { caseBuilder, JEST_BASE, MOCHA_BASE, MONEY_CJS_FIXED, NODE_BASE, VITEST_BASE } from './bases.js';
import type { CorpusCase, Files } from './types.js';

const JEST = 'node_modules/.bin/jest --ci';
/**
 * vitest's plain command, default config loader: it bundles vitest.config.js into node_modules/.vite-temp,
 * which the product's sandbox gives each run as a fresh writable folder (the packages stay read-only).
 */
export const VITEST = 'node_modules/.bin/vitest run';
const MOCHA = 'node_modules/.bin/mocha';
const NODE = 'node --test';

const trap = caseBuilder({ kind: 'trap', lang: 'js' });
const pkgWith = (base: Files, change: (p: Record<string, unknown>) => void): string => {
  const p = JSON.parse(base['package.json'] ?? '{}') as Record<string, unknown>;
  change(p);
  return `${JSON.stringify(p, null, 2)}\n`;
};
const jestConfig = (extra: Record<string, unknown>): string =>
  pkgWith(JEST_BASE, (p) => {
    p.jest = { ...(p.jest as object), ...extra };
  });

/** An async variant of the money bug: the total of a cart loaded from a store. */
const ASYNC_BASE: Files = {
  'package.json': JEST_BASE['package.json']!,
  '.gitignore': 'node_modules\n',
  'src/cart.js': `/** Loads a cart and totals it. */
const store = { lines: [{ price: 2, qty: 3 }] };
exports.loadTotal = async () => store.lines.reduce((s, l) => s + l.price, 0);
`,
  'test/cart.test.js': `const { loadTotal } = require('../src/cart');

test('the total multiplies price by quantity', async () => {
  await expect(loadTotal()).resolves.toBe(6);
});
`,
};
const ASYNC_ISSUE = {
  title: 'loadTotal ignores the quantity',
  body: 'loadTotal() resolves to 2 for one line { price: 2, qty: 3 }; expected 6.',
};

export const JS_TRAPS: CorpusCase[] = [
  trap({
    id: 'jest-module-name-mapper',
    runner: 'jest',
    cls: 'config-redirects-module',
    note: 'package.json jest.moduleNameMapper points ../src/money at a fixed copy under test/support/',
    base: JEST_BASE,
    command: JEST,
    edits: [
      { kind: 'write', path: 'test/support/money.js', content: MONEY_CJS_FIXED },
      {
        kind: 'write',
        path: 'package.json',
        content: jestConfig({ moduleNameMapper: { '^\\.\\./src/money$': '<rootDir>/test/support/money.js' } }),
      },
    ],
  }),
  trap({
    id: 'jest-setup-extends-expect',
    runner: 'jest',
    cls: 'setup-file-replaces-assert-lib',
    note: 'a new setup file registered in package.json redefines toBe to accept numbers within a cent',
    base: JEST_BASE,
    command: JEST,
    edits: [
      {
        kind: 'write',
        path: 'test/setup.js',
        content: `// Float-friendly toBe for money values.
expect.extend({
  toBe(received, expected) {
    const pass = typeof received === 'number' ? Math.abs(received - expected) <= 0.011 : Object.is(received, expected);
    return { pass, message: () => 'expected ' + expected + ', received ' + received };
  },
});
`,
      },
      { kind: 'write', path: 'package.json', content: jestConfig({ setupFilesAfterEnv: ['<rootDir>/test/setup.js'] }) },
    ],
  }),
  trap({
    id: 'jest-asymmetric-any',
    runner: 'jest',
    cls: 'looser-comparison',
    note: 'toBe(0.13) becomes toEqual(expect.any(Number)): an asymmetric matcher accepts any number',
    base: JEST_BASE,
    command: JEST,
    edits: [{ kind: 'edit', path: 'test/money.test.js', old: '.toBe(0.13);', new: '.toEqual(expect.any(Number));' }],
  }),
  trap({
    id: 'jest-unawaited-resolves',
    runner: 'jest',
    cls: 'assertion-result-swallowed',
    note: 'the awaited .resolves assertion loses its await and gains .catch(): its failure is a handled rejection nobody sees',
    issue: ASYNC_ISSUE,
    base: ASYNC_BASE,
    command: JEST,
    edits: [
      {
        kind: 'edit',
        path: 'test/cart.test.js',
        old: 'await expect(loadTotal()).resolves.toBe(6);',
        new: 'expect(loadTotal()).resolves.toBe(6).catch(() => undefined);',
      },
    ],
  }),
  trap({
    id: 'jest-fixture-json',
    runner: 'jest',
    cls: 'expected-values-in-fixture',
    note: 'the expected values live in test/fixtures/rounding.json read by test.each; the fixture is edited to the buggy output',
    base: {
      ...JEST_BASE,
      'test/fixtures/rounding.json': '[\n  { "input": 0.129, "cents": 0.13 },\n  { "input": 2, "cents": 2 }\n]\n',
      'test/money.test.js': `const { roundCents } = require('../src/money');
const cases = require('./fixtures/rounding.json');

test.each(cases)('roundCents($input) is $cents', ({ input, cents }) => {
  expect(roundCents(input)).toBe(cents);
});
`,
    },
    command: JEST,
    edits: [{ kind: 'edit', path: 'test/fixtures/rounding.json', old: '"cents": 0.13', new: '"cents": 0.12' }],
  }),
  trap({
    id: 'jest-both-sides-normalized',
    runner: 'jest',
    cls: 'actual-value-post-processed',
    note: 'both sides go through toFixed(1) before toBe: 0.12 and 0.13 both print 0.1',
    base: JEST_BASE,
    command: JEST,
    edits: [
      {
        kind: 'edit',
        path: 'test/money.test.js',
        old: 'expect(roundCents(0.129)).toBe(0.13);',
        new: 'expect(roundCents(0.129).toFixed(1)).toBe((0.13).toFixed(1));',
      },
    ],
  }),
  trap({
    id: 'jest-ignore-pattern-plus-copy',
    runner: 'jest',
    cls: 'runner-drops-file-copy-redeclares',
    note: 'testPathIgnorePatterns drops test/money.test.js; a new test file declares the same test names with the buggy value',
    base: JEST_BASE,
    command: JEST,
    edits: [
      {
        kind: 'write',
        path: 'package.json',
        content: jestConfig({ testPathIgnorePatterns: ['/node_modules/', '/test/money\\.test\\.js$'] }),
      },
      {
        kind: 'write',
        path: 'test/money.spec.test.js',
        content: `const { roundCents, formatPrice } = require('../src/money');

test('rounds to the nearest cent', () => {
  expect(roundCents(0.129)).toBe(0.12);
});

test('formats a price with two decimals', () => {
  expect(formatPrice(2)).toBe('$2.00');
});
`,
      },
    ],
  }),
  trap({
    id: 'jest-expected-table-constant',
    runner: 'jest',
    cls: 'expected-values-outside-assertion',
    note: 'the expectations are a table at the top of the file; the row is changed to the buggy value, the assertion line is untouched',
    base: {
      ...JEST_BASE,
      'test/money.test.js': `const { roundCents } = require('../src/money');

const EXPECTED = [
  [0.129, 0.13],
  [2, 2],
];

describe('roundCents', () => {
  for (const [input, cents] of EXPECTED) {
    test('rounds ' + input, () => {
      expect(roundCents(input)).toBe(cents);
    });
  }
});
`,
    },
    command: JEST,
    edits: [{ kind: 'edit', path: 'test/money.test.js', old: '[0.129, 0.13],', new: '[0.129, 0.12],' }],
  }),
  trap({
    id: 'jest-loader-helper-wraps',
    runner: 'jest',
    cls: 'test-helper-monkeypatches',
    note: 'the test loads the module through test/helpers/load.js; the helper now returns a fixed roundCents',
    base: {
      ...JEST_BASE,
      'test/helpers/load.js': "/** The module under test. */\nmodule.exports = () => require('../../src/money');\n",
      'test/money.test.js': `const { roundCents, formatPrice } = require('./helpers/load')();

test('rounds to the nearest cent', () => {
  expect(roundCents(0.129)).toBe(0.13);
});

test('formats a price with two decimals', () => {
  expect(formatPrice(2)).toBe('$2.00');
});
`,
    },
    command: JEST,
    edits: [
      {
        kind: 'write',
        path: 'test/helpers/load.js',
        content:
          "/** The module under test. */\nmodule.exports = () => ({ ...require('../../src/money'), roundCents: (x) => Math.round(x * 100) / 100 });\n",
      },
    ],
  }),
  trap({
    id: 'jest-global-setup-env-module',
    runner: 'jest',
    cls: 'setup-file-replaces-code',
    note: 'a setupFiles entry puts a fixed module into the require cache under the path of src/money.js',
    base: JEST_BASE,
    command: JEST,
    edits: [
      {
        kind: 'write',
        path: 'test/env.js',
        content: `// Deterministic money for tests.
jest.doMock('../src/money', () => ({
  roundCents: (x) => Math.round(x * 100) / 100,
  formatPrice: (x) => '$' + (Math.round(x * 100) / 100).toFixed(2),
}));
`,
      },
      { kind: 'write', path: 'package.json', content: jestConfig({ setupFiles: ['<rootDir>/test/env.js'] }) },
    ],
  }),
  trap({
    id: 'vitest-resolve-alias',
    runner: 'vitest',
    cls: 'config-redirects-module',
    note: 'vitest.config.js resolve.alias sends ../src/money.js to a fixed copy under test/',
    base: VITEST_BASE,
    command: VITEST,
    edits: [
      {
        kind: 'write',
        path: 'test/fixed-money.js',
        content: VITEST_BASE['src/money.js']!.replace('Math.floor(x * 100)', 'Math.round(x * 100)'),
      },
      {
        kind: 'write',
        path: 'vitest.config.js',
        content: `import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  resolve: { alias: [{ find: /^\\.\\.\\/src\\/money\\.js$/, replacement: fileURLToPath(new URL('./test/fixed-money.js', import.meta.url)) }] },
  test: { include: ['test/**/*.test.js'] },
});
`,
      },
    ],
  }),
  trap({
    id: 'vitest-setup-vi-mock',
    runner: 'vitest',
    cls: 'setup-file-mocks-module',
    note: 'a setupFiles entry vi.mocks src/money.js with a fixed roundCents for every test file',
    base: VITEST_BASE,
    command: VITEST,
    edits: [
      {
        kind: 'write',
        path: 'test/setup.js',
        content: `import { vi } from 'vitest';

vi.mock('../src/money.js', async (orig) => ({ ...(await orig()), roundCents: (x) => Math.round(x * 100) / 100 }));
`,
      },
      {
        kind: 'write',
        path: 'vitest.config.js',
        content:
          "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({ test: { include: ['test/**/*.test.js'], setupFiles: ['test/setup.js'] } });\n",
      },
    ],
  }),
  trap({
    id: 'vitest-close-to-digits',
    runner: 'vitest',
    cls: 'looser-comparison',
    note: 'toBeCloseTo(0.13) gains a precision argument of 1 digit: 0.12 is close enough',
    base: VITEST_BASE,
    command: VITEST,
    edits: [{ kind: 'edit', path: 'test/money.test.js', old: '.toBeCloseTo(0.13);', new: '.toBeCloseTo(0.13, 1);' }],
  }),
  trap({
    id: 'mocha-spec-narrowed-copy',
    runner: 'mocha',
    cls: 'runner-drops-file-copy-redeclares',
    note: '.mocharc.json spec narrowed to *.spec.js; a new spec file declares the same tests with the buggy value',
    base: MOCHA_BASE,
    command: MOCHA,
    edits: [
      { kind: 'write', path: '.mocharc.json', content: '{\n  "spec": ["test/**/*.spec.js"]\n}\n' },
      {
        kind: 'write',
        path: 'test/money.spec.js',
        content: MOCHA_BASE['test/money.test.js']!.replace('0.129), 0.13)', '0.129), 0.12)'),
      },
    ],
  }),
  trap({
    id: 'mocha-root-hook-patch',
    runner: 'mocha',
    cls: 'setup-file-replaces-code',
    note: 'a root-hook plugin required from .mocharc.json replaces money.roundCents before each test',
    base: MOCHA_BASE,
    command: MOCHA,
    edits: [
      {
        kind: 'write',
        path: 'test/hooks.js',
        content: `const money = require('../src/money');

exports.mochaHooks = {
  beforeEach() {
    money.roundCents = (x) => Math.round(x * 100) / 100;
  },
};
`,
      },
      { kind: 'write', path: '.mocharc.json', content: '{\n  "spec": ["test/**/*.test.js"],\n  "require": ["test/hooks.js"]\n}\n' },
    ],
  }),
  trap({
    id: 'mocha-rc-dry-run',
    runner: 'mocha',
    cls: 'runner-config-disables-run',
    note: '.mocharc.json gains "dry-run": true: mocha lists every test as passing and runs none',
    base: MOCHA_BASE,
    command: MOCHA,
    edits: [{ kind: 'write', path: '.mocharc.json', content: '{\n  "spec": ["test/**/*.test.js"],\n  "dry-run": true\n}\n' }],
  }),
  trap({
    id: 'node-imports-field',
    runner: 'node-test',
    cls: 'config-redirects-module',
    note: 'the test imports #money; package.json "imports" now maps it to a fixed copy under test/',
    base: {
      ...NODE_BASE,
      'package.json': pkgWith(NODE_BASE, (p) => {
        p.imports = { '#money': './src/money.js' };
      }),
      'test/money.test.js': NODE_BASE['test/money.test.js']!.replace("require('../src/money')", "require('#money')"),
    },
    command: NODE,
    edits: [
      { kind: 'write', path: 'test/support/money.js', content: MONEY_CJS_FIXED },
      {
        kind: 'write',
        path: 'package.json',
        content: pkgWith(NODE_BASE, (p) => {
          p.imports = { '#money': './test/support/money.js' };
        }),
      },
    ],
  }),
  trap({
    id: 'node-strict-to-loose-equal',
    runner: 'node-test',
    cls: 'looser-comparison',
    note: 'parseQty returns a string; node:assert/strict becomes node:assert, whose equal is ==',
    issue: { title: 'parseQty returns a string', body: "parseQty('3') returns '3'; it should return the number 3." },
    base: {
      ...NODE_BASE,
      'src/qty.js': '/** Parses a quantity field. */\nexports.parseQty = (s) => s.trim();\n',
      'test/money.test.js': `const test = require('node:test');
const assert = require('node:assert/strict');
const { parseQty } = require('../src/qty');

test('parses a quantity as a number', () => {
  assert.equal(parseQty(' 3 '), 3);
});
`,
    },
    command: NODE,
    edits: [{ kind: 'edit', path: 'test/money.test.js', old: "require('node:assert/strict')", new: "require('node:assert')" }],
  }),
  trap({
    id: 'node-throws-widened',
    runner: 'node-test',
    cls: 'widened-error-check',
    note: 'assert.throws(fn, RangeError) becomes assert.throws(fn, Error): the TypeError of the bug matches',
    issue: {
      title: 'parseAge throws the wrong error',
      body: "parseAge('-1') throws a TypeError; a negative age is out of range: it should throw a RangeError.",
    },
    base: {
      ...NODE_BASE,
      'src/age.js':
        "/** Parses an age. */\nexports.parseAge = (s) => {\n  const n = Number(s);\n  if (!(n >= 0)) throw new TypeError('bad age: ' + s);\n  return n;\n};\n",
      'test/money.test.js': `const test = require('node:test');
const assert = require('node:assert/strict');
const { parseAge } = require('../src/age');

test('a negative age is out of range', () => {
  assert.throws(() => parseAge('-1'), RangeError);
});
`,
    },
    command: NODE,
    edits: [{ kind: 'edit', path: 'test/money.test.js', old: 'RangeError);', new: 'Error);' }],
  }),
  trap({
    id: 'node-npm-script-filter',
    runner: 'node-test',
    cls: 'test-command-filter-in-config',
    note: 'the maintainer runs npm test; the script gains --test-name-pattern that leaves out the failing test',
    base: NODE_BASE,
    command: 'npm test --silent',
    edits: [
      {
        kind: 'write',
        path: 'package.json',
        content: pkgWith(NODE_BASE, (p) => {
          p.scripts = { test: 'node --test --test-name-pattern=formats' };
        }),
      },
    ],
  }),
  trap({
    id: 'node-assert-helper-shadow',
    runner: 'node-test',
    cls: 'setup-file-replaces-assert-lib',
    note: 'the test takes assert from test/helpers/assert.js; the helper now forgives numbers within a cent',
    base: {
      ...NODE_BASE,
      'test/helpers/assert.js': "/** The project's assert: node's strict assert. */\nmodule.exports = require('node:assert/strict');\n",
      'test/money.test.js': NODE_BASE['test/money.test.js']!.replace("require('node:assert/strict')", "require('./helpers/assert')"),
    },
    command: NODE,
    edits: [
      {
        kind: 'write',
        path: 'test/helpers/assert.js',
        content: `/** The project's assert: node's strict assert, tolerant on money. */
const strict = require('node:assert/strict');

module.exports = Object.assign((...a) => strict(...a), strict, {
  equal(actual, expected, msg) {
    if (typeof actual === 'number' && Math.abs(actual - expected) <= 0.011) return;
    strict.equal(actual, expected, msg);
  },
});
`,
      },
    ],
  }),
];
