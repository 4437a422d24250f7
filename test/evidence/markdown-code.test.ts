import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mdText, mdTextWithCode } from '../../src/agent/evidence/markdown.js';
import { renderSummaryMd } from '../../src/agent/evidence/summary-md.js';
import type { Evidence } from '../../src/agent/evidence/types.js';

/** Gate details quote commands and paths in backticks: the PR body shows them as code, not as `\``. */
describe('code spans in gate details', () => {
  it.each([
    ['ran `npm test` on the final tree (3 passed)', 'ran `npm test` on the final tree (3 passed)'],
    ['`a` and `b_c`, *not* bold', '`a` and `b_c`, \\*not\\* bold'],
    // A `|` inside the code cannot split the table cell; one outside is escaped as text.
    ['ran `npm test | tee log` | then', 'ran `npm test \\| tee log` \\| then'],
    // A span holding backticks keeps a longer fence.
    ['see ``a`b`` here', 'see ``a`b`` here'],
  ])('renders complete code spans as code and escapes the rest: %j', (text, md) => {
    expect(mdTextWithCode(text)).toBe(md);
  });

  it.each([
    ['a ` b <img src=x> @octocat', 'a \\` b \\<img src=x\\> @\u200boctocat'],
    ['no code here', mdText('no code here')],
    ['two\nlines   `x`', 'two lines `x`'],
  ])('leaves an unmatched backtick, HTML and mentions neutral outside code: %j', (text, md) => {
    expect(mdTextWithCode(text)).toBe(md);
  });

  it('the PR body shows a gate detail with code as code', () => {
    const ev = JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/runs', 'unverified', 'evidence.json'), 'utf8')) as Evidence;
    const gate = ev.gates[0]!;
    const md = renderSummaryMd({
      ...ev,
      gates: [{ ...gate, passed: false, detail: 'removed 1 assertion in `test/a.test.js`' }, ...ev.gates.slice(1)],
    });
    expect(md).toContain('| removed 1 assertion in `test/a.test.js` |');
    expect(md).not.toContain('\\`test/a.test.js\\`');
  });
});
