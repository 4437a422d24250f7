import { describe, expect, it } from '@jest/globals';
import { assertionsKept } from '../../src/agent/verification/integrity/assertions.js';
import { onlyDataAppended } from '../../src/agent/verification/integrity/data-append.js';
import { changedRepo } from './git-repo.js';

const TABLE = `import { withBase } from '../src/utils';
describe('withBase', () => {
  const tests = [
    { base: '/', input: '/', out: '/' },
    { base: '/base/', input: '/base/a', out: '/base/a' },
  ];
  for (const t of tests) {
    test(t.input, () => {
      expect(withBase(t.input, t.base)).toBe(t.out);
    });
  }
});
`;
const FIXTURES = `PARSED = {
    "http://a/": {
        "protocol": "http:",
        "slashes": True,
    },
}
`;

describe('integrity: a table of cases that only gained rows', () => {
  it('data append - new rows (one-line, multi-line, a dict entry with a comment) pass; a changed row, a key inside a row or code fail', () => {
    const rows = TABLE.replace(
      "    { base: '/base/', input: '/base/a', out: '/base/a' },\n",
      "    { base: '/base/', input: '/base/a', out: '/base/a' },\n    {\n      base: '/admin/',\n      input: '/admin-x',\n      out: '/admin/admin-x',\n    },\n    { base: '/a', input: '/a-b', out: '/a/a-b' },\n",
    );
    expect(onlyDataAppended(TABLE, rows)).toBe(true);
    expect(
      onlyDataAppended(
        FIXTURES,
        FIXTURES.replace(
          '    },\n}',
          '    },\n    #\n    "http://": {\n        "protocol": "http:",\n        "hostname": "",\n        "slashes": True,\n    }\n}',
        ),
      ),
    ).toBe(true);
    expect(onlyDataAppended(TABLE, TABLE.replace("out: '/' }", "out: '/x' }"))).toBe(false);
    expect(
      onlyDataAppended(
        TABLE,
        TABLE.replace("    { base: '/', input: '/', out: '/' },\n", "    { base: '/', input: '/', out: '/' },\n    skip: true,\n"),
      ),
    ).toBe(false);
    expect(
      onlyDataAppended(TABLE, TABLE.replace('  for (const t of tests) {\n', '  for (const t of tests) {\n    if (t.base) continue;\n')),
    ).toBe(false);
    expect(
      onlyDataAppended(
        TABLE,
        TABLE.replace(
          "    { base: '/', input: '/', out: '/' },\n",
          "    { base: '/', input: '/', out: '/' },\n    { base: make(), input: '/', out: '/' },\n",
        ),
      ),
    ).toBe(false);
    expect(onlyDataAppended(TABLE, TABLE)).toBe(false);
  });

  it('data append - assertions-kept passes a test file whose case table gained rows and fails one whose row changed', async () => {
    const judge = async (now: string) => {
      const r = changedRepo(
        { 'src/utils.js': 'export const withBase = (a) => a;\n', 'test/base.test.ts': TABLE },
        { 'test/base.test.ts': now },
      );
      return assertionsKept(r.root, r.baseSha, undefined, {});
    };
    const grown = await judge(
      TABLE.replace(
        "    { base: '/base/', input: '/base/a', out: '/base/a' },\n",
        "    { base: '/base/', input: '/base/a', out: '/base/a' },\n    { base: '/a', input: '/a-b', out: '/a/a-b' },\n",
      ),
    );
    expect(grown).toMatchObject({ passed: true });
    const changed = await judge(TABLE.replace("out: '/base/a' }", "out: '/base/b' }"));
    expect(changed.passed).toBe(false);
    expect(changed.detail).toContain('changed or removed');
  });
});
