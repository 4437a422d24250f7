/**
 * Repository-shaped projects for the runner-summary count tests (uvu, mocha under c8 as ESM, a cargo crate
 * with several test targets and doc-tests, node-tap 21), each with what real repositories have and the
 * miscounts came from: several files and suites, repeated test titles, nested suites, skipped and todo
 * tests, tests that print to stdout and stderr (some print a runner's summary line of their own), and,
 * for cargo, target lines on stderr beside the test binaries' blocks on stdout. Pure data: the tests
 * write it into a git repository and run the real runners on it.
 */

/** A unit test of the crate, and a check of the line a test prints on its own. */
function cargoLib(): string {
  const lines = [
    '/// Adds.\n///\n/// ```\n/// assert_eq!(calc::add(1, 2), 3);\n/// ```\npub fn add(a: i64, b: i64) -> i64 { a + b }\n',
    '/// Multiplies.\n///\n/// ```\n/// assert_eq!(calc::mul(2, 3), 6);\n/// ```\npub fn mul(a: i64, b: i64) -> i64 { a * b }\n',
    '#[cfg(test)]\nmod tests {\n    use super::*;\n',
  ];
  for (let i = 0; i < 12; i++)
    lines.push(
      `    #[test]\n    fn unit_${i}() {\n        eprintln!("     Running tests/fake.rs (noise)");\n        assert_eq!(add(${i}, 1), ${i + 1});\n    }\n`,
    );
  lines.push('    #[test]\n    #[ignore]\n    fn slow() {}\n}\n');
  return lines.join('');
}

function cargoIntegration(name: string, n: number): string {
  const lines = ['use calc::*;\n'];
  for (let i = 0; i < n; i++) lines.push(`#[test]\nfn ${name}_${i}() {\n    assert_eq!(mul(${i}, 2), ${2 * i});\n}\n`);
  return lines.join('');
}

/** cargo: unit tests in src/lib.rs (one ignored), three integration targets, two doc-tests: 44 executed, 1 ignored. */
export const CARGO_CRATE: Record<string, string> = {
  'Cargo.toml': '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
  '.gitignore': 'target/\n',
  'src/lib.rs': cargoLib(),
  'tests/a.rs': cargoIntegration('a', 10),
  'tests/b.rs': cargoIntegration('b', 10),
  'tests/c.rs': cargoIntegration('c', 10),
};

/** uvu: two files, named suites and the default one, a skipped test, noise on stderr. */
export const UVU_PROJECT: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'uvu-fx', version: '1.0.0', type: 'module', scripts: { test: 'uvu tests' } }, null, 2),
  '.gitignore': 'node_modules\n',
  'src/math.js': 'export const add = (a, b) => a + b;\nexport const mul = (a, b) => a * b;\n',
  'tests/add.js': `import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { add } from '../src/math.js';
const Add = suite('add');
Add('adds', () => assert.is(add(1, 2), 3));
Add('adds zero', () => assert.is(add(0, 2), 2));
Add.skip('adds later', () => assert.is(add(1, 1), 2));
Add.run();
const Neg = suite('negative');
Neg('adds negatives', () => assert.is(add(-1, -2), -3));
Neg('adds', () => assert.is(add(-1, 1), 0));
Neg.run();
`,
  'tests/mul.js': `import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mul } from '../src/math.js';
test('mul', () => assert.is(mul(2, 3), 6));
test('mul zero', () => { console.error('noise on stderr'); assert.is(mul(0, 3), 0); });
test.run();
`,
};

/** mocha under c8, ESM: repeated titles (in one file and across files), nested suites, a pending test, a printed fake summary. */
export const MOCHA_C8_PROJECT: Record<string, string> = {
  'package.json': JSON.stringify(
    { name: 'mocha-fx', version: '1.0.0', type: 'module', scripts: { test: 'c8 --reporter=text mocha' } },
    null,
    2,
  ),
  '.gitignore': 'node_modules\ncoverage\n',
  '.mocharc.json': JSON.stringify({ spec: ['test/**/*.test.js'], recursive: true }),
  'src/str.js': "export const up = (s) => s.toUpperCase();\nexport const rev = (s) => [...s].reverse().join('');\n",
  'test/unit/str.test.js': `import assert from 'node:assert/strict';
import { up, rev } from '../../src/str.js';
describe('str', () => {
  describe('up', () => {
    it('works', () => assert.equal(up('a'), 'A'));
    it('works', () => assert.equal(up('b'), 'B'));
    it.skip('handles emoji', () => {});
    for (const s of ['x', 'y', 'z']) it(\`ups \${s}\`, () => assert.equal(up(s), s.toUpperCase()));
  });
  describe('rev', () => {
    it('works', () => assert.equal(rev('ab'), 'ba'));
    it('prints', () => { console.log('  99 passing (1ms)'); assert.ok(true); });
  });
});
`,
  'test/unit/again.test.js': `import assert from 'node:assert/strict';
describe('str', () => {
  describe('up', () => {
    it('works', () => assert.ok(true));
  });
  it('async', async () => { await new Promise((r) => setTimeout(r, 5)); assert.ok(true); });
});
it('top level', () => { console.error('noise on stderr'); assert.ok(true); });
`,
};

/** node-tap 21: nested t.test blocks with several assertions, top-level assertions, skip and todo, a printed fake total. */
export const TAP_PROJECT: Record<string, string> = {
  'package.json': JSON.stringify(
    { name: 'tap-fx', version: '1.0.0', scripts: { test: 'tap' }, tap: { 'disable-coverage': true } },
    null,
    2,
  ),
  '.gitignore': 'node_modules\n.tap\n',
  'lib/parse.js': "exports.parse = (s) => { if (!s) throw new Error('empty'); return s.split(',').map(Number); };\n",
  'test/parse.js': `const t = require('tap');
const { parse } = require('../lib/parse.js');
t.test('parse', async (t) => {
  t.test('one', async (t) => { t.same(parse('1'), [1]); t.equal(parse('1').length, 1); });
  t.test('many', async (t) => { t.same(parse('1,2'), [1, 2]); });
  t.test('empty', async (t) => { t.throws(() => parse('')); });
});
t.test('later', { skip: 'not yet' }, async () => {});
t.test('someday', { todo: true }, async () => {});
t.equal(parse('3')[0], 3, 'top-level assertion');
`,
  'test/more.js': `const t = require('tap');
t.ok(true, 'loads');
t.test('prints', async (t) => { console.log('# { total: 999, pass: 999 }'); console.error('noise on stderr'); t.pass('printed'); });
`,
};
