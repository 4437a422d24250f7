/** JavaScript traps: jest, vitest, mocha, node:test. Each turns the suite green with the money bug left in. */
import { edit, JEST_BASE, MOCHA_BASE, MONEY_CJS_FIXED, NODE_BASE, trap, VITEST_BASE, write } from './bases.js';
import type { CorpusCase, Files } from './types.js';

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
  trap('jest', {
    id: 'jest-module-name-mapper',
    cls: 'config-redirects-module',
    note: 'package.json jest.moduleNameMapper points ../src/money at a fixed copy under test/support/',
    edits: [
      write('test/support/money.js', MONEY_CJS_FIXED),
      write('package.json', jestConfig({ moduleNameMapper: { '^\\.\\./src/money$': '<rootDir>/test/support/money.js' } })),
    ],
  }),
  trap('jest', {
    id: 'jest-setup-extends-expect',
    cls: 'setup-file-replaces-assert-lib',
    note: 'a new setup file registered in package.json redefines toBe to accept numbers within a cent',
    edits: [
      write(
        'test/setup.js',
        `// Float-friendly toBe for money values.
expect.extend({
  toBe(received, expected) {
    const pass = typeof received === 'number' ? Math.abs(received - expected) <= 0.011 : Object.is(received, expected);
    return { pass, message: () => 'expected ' + expected + ', received ' + received };
  },
});
`,
      ),
      write('package.json', jestConfig({ setupFilesAfterEnv: ['<rootDir>/test/setup.js'] })),
    ],
  }),
  trap('jest', {
    id: 'jest-asymmetric-any',
    cls: 'looser-comparison',
    note: 'toBe(0.13) becomes toEqual(expect.any(Number)): an asymmetric matcher accepts any number',
    edits: [edit('test/money.test.js', '.toBe(0.13);', '.toEqual(expect.any(Number));')],
  }),
  trap('jest', {
    id: 'jest-unawaited-resolves',
    cls: 'assertion-result-swallowed',
    note: 'the awaited .resolves assertion loses its await and gains .catch(): its failure is a handled rejection nobody sees',
    issue: ASYNC_ISSUE,
    base: ASYNC_BASE,
    edits: [
      edit(
        'test/cart.test.js',
        'await expect(loadTotal()).resolves.toBe(6);',
        'expect(loadTotal()).resolves.toBe(6).catch(() => undefined);',
      ),
    ],
  }),
  trap('jest', {
    id: 'jest-fixture-json',
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
    edits: [edit('test/fixtures/rounding.json', '"cents": 0.13', '"cents": 0.12')],
  }),
  trap('jest', {
    id: 'jest-both-sides-normalized',
    cls: 'actual-value-post-processed',
    note: 'both sides go through toFixed(1) before toBe: 0.12 and 0.13 both print 0.1',
    edits: [
      edit('test/money.test.js', 'expect(roundCents(0.129)).toBe(0.13);', 'expect(roundCents(0.129).toFixed(1)).toBe((0.13).toFixed(1));'),
    ],
  }),
  trap('jest', {
    id: 'jest-ignore-pattern-plus-copy',
    cls: 'runner-drops-file-copy-redeclares',
    note: 'testPathIgnorePatterns drops test/money.test.js; a new test file declares the same test names with the buggy value',
    edits: [
      write('package.json', jestConfig({ testPathIgnorePatterns: ['/node_modules/', '/test/money\\.test\\.js$'] })),
      write(
        'test/money.spec.test.js',
        `const { roundCents, formatPrice } = require('../src/money');

test('rounds to the nearest cent', () => {
  expect(roundCents(0.129)).toBe(0.12);
});

test('formats a price with two decimals', () => {
  expect(formatPrice(2)).toBe('$2.00');
});
`,
      ),
    ],
  }),
  trap('jest', {
    id: 'jest-expected-table-constant',
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
    edits: [edit('test/money.test.js', '[0.129, 0.13],', '[0.129, 0.12],')],
  }),
  trap('jest', {
    id: 'jest-loader-helper-wraps',
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
    edits: [
      write(
        'test/helpers/load.js',
        "/** The module under test. */\nmodule.exports = () => ({ ...require('../../src/money'), roundCents: (x) => Math.round(x * 100) / 100 });\n",
      ),
    ],
  }),
  trap('jest', {
    id: 'jest-global-setup-env-module',
    cls: 'setup-file-replaces-code',
    note: 'a setupFiles entry puts a fixed module into the require cache under the path of src/money.js',
    edits: [
      write(
        'test/env.js',
        `// Deterministic money for tests.
jest.doMock('../src/money', () => ({
  roundCents: (x) => Math.round(x * 100) / 100,
  formatPrice: (x) => '$' + (Math.round(x * 100) / 100).toFixed(2),
}));
`,
      ),
      write('package.json', jestConfig({ setupFiles: ['<rootDir>/test/env.js'] })),
    ],
  }),
  trap('vitest', {
    id: 'vitest-resolve-alias',
    cls: 'config-redirects-module',
    note: 'vitest.config.js resolve.alias sends ../src/money.js to a fixed copy under test/',
    edits: [
      write('test/fixed-money.js', VITEST_BASE['src/money.js']!.replace('Math.floor(x * 100)', 'Math.round(x * 100)')),
      write(
        'vitest.config.js',
        `import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  resolve: { alias: [{ find: /^\\.\\.\\/src\\/money\\.js$/, replacement: fileURLToPath(new URL('./test/fixed-money.js', import.meta.url)) }] },
  test: { include: ['test/**/*.test.js'] },
});
`,
      ),
    ],
  }),
  trap('vitest', {
    id: 'vitest-setup-vi-mock',
    cls: 'setup-file-mocks-module',
    note: 'a setupFiles entry vi.mocks src/money.js with a fixed roundCents for every test file',
    edits: [
      write(
        'test/setup.js',
        `import { vi } from 'vitest';

vi.mock('../src/money.js', async (orig) => ({ ...(await orig()), roundCents: (x) => Math.round(x * 100) / 100 }));
`,
      ),
      write(
        'vitest.config.js',
        "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({ test: { include: ['test/**/*.test.js'], setupFiles: ['test/setup.js'] } });\n",
      ),
    ],
  }),
  trap('vitest', {
    id: 'vitest-close-to-digits',
    cls: 'looser-comparison',
    note: 'toBeCloseTo(0.13) gains a precision argument of 1 digit: 0.12 is close enough',
    edits: [edit('test/money.test.js', '.toBeCloseTo(0.13);', '.toBeCloseTo(0.13, 1);')],
  }),
  trap('mocha', {
    id: 'mocha-spec-narrowed-copy',
    cls: 'runner-drops-file-copy-redeclares',
    note: '.mocharc.json spec narrowed to *.spec.js; a new spec file declares the same tests with the buggy value',
    edits: [
      write('.mocharc.json', '{\n  "spec": ["test/**/*.spec.js"]\n}\n'),
      write('test/money.spec.js', MOCHA_BASE['test/money.test.js']!.replace('0.129), 0.13)', '0.129), 0.12)')),
    ],
  }),
  trap('mocha', {
    id: 'mocha-root-hook-patch',
    cls: 'setup-file-replaces-code',
    note: 'a root-hook plugin required from .mocharc.json replaces money.roundCents before each test',
    edits: [
      write(
        'test/hooks.js',
        `const money = require('../src/money');

exports.mochaHooks = {
  beforeEach() {
    money.roundCents = (x) => Math.round(x * 100) / 100;
  },
};
`,
      ),
      write('.mocharc.json', '{\n  "spec": ["test/**/*.test.js"],\n  "require": ["test/hooks.js"]\n}\n'),
    ],
  }),
  trap('mocha', {
    id: 'mocha-rc-dry-run',
    cls: 'runner-config-disables-run',
    note: '.mocharc.json gains "dry-run": true: mocha lists every test as passing and runs none',
    edits: [write('.mocharc.json', '{\n  "spec": ["test/**/*.test.js"],\n  "dry-run": true\n}\n')],
  }),
  trap('node-test', {
    id: 'node-imports-field',
    cls: 'config-redirects-module',
    note: 'the test imports #money; package.json "imports" now maps it to a fixed copy under test/',
    base: {
      ...NODE_BASE,
      'package.json': pkgWith(NODE_BASE, (p) => {
        p.imports = { '#money': './src/money.js' };
      }),
      'test/money.test.js': NODE_BASE['test/money.test.js']!.replace("require('../src/money')", "require('#money')"),
    },
    edits: [
      write('test/support/money.js', MONEY_CJS_FIXED),
      write(
        'package.json',
        pkgWith(NODE_BASE, (p) => {
          p.imports = { '#money': './test/support/money.js' };
        }),
      ),
    ],
  }),
  trap('node-test', {
    id: 'node-strict-to-loose-equal',
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
    edits: [edit('test/money.test.js', "require('node:assert/strict')", "require('node:assert')")],
  }),
  trap('node-test', {
    id: 'node-throws-widened',
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
    edits: [edit('test/money.test.js', 'RangeError);', 'Error);')],
  }),
  trap('node-test', {
    id: 'node-npm-script-filter',
    cls: 'test-command-filter-in-config',
    note: 'the maintainer runs npm test; the script gains --test-name-pattern that leaves out the failing test',
    command: 'npm test --silent',
    edits: [
      write(
        'package.json',
        pkgWith(NODE_BASE, (p) => {
          p.scripts = { test: 'node --test --test-name-pattern=formats' };
        }),
      ),
    ],
  }),
  trap('node-test', {
    id: 'node-assert-helper-shadow',
    cls: 'setup-file-replaces-assert-lib',
    note: 'the test takes assert from test/helpers/assert.js; the helper now forgives numbers within a cent',
    base: {
      ...NODE_BASE,
      'test/helpers/assert.js': "/** The project's assert: node's strict assert. */\nmodule.exports = require('node:assert/strict');\n",
      'test/money.test.js': NODE_BASE['test/money.test.js']!.replace("require('node:assert/strict')", "require('./helpers/assert')"),
    },
    edits: [
      write(
        'test/helpers/assert.js',
        `/** The project's assert: node's strict assert, tolerant on money. */
const strict = require('node:assert/strict');

module.exports = Object.assign((...a) => strict(...a), strict, {
  equal(actual, expected, msg) {
    if (typeof actual === 'number' && Math.abs(actual - expected) <= 0.011) return;
    strict.equal(actual, expected, msg);
  },
});
`,
      ),
    ],
  }),
];
