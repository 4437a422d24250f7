/**
 * node-tap's count is what tap's parser surfaces, read from the TAP text alone: the shapes the bench's
 * minimatch case and the real-tap constructs (node-tap-constructs.integration.test.ts) showed, written out
 * as tap 21 prints them, each with the total tap printed for it.
 */
import { describe, expect, it } from '@jest/globals';
import { Parser } from 'tap-parser';
import { tapCounts } from '../../src/agent/verification/test-results/runners/node-tap.js';
import { tapTree } from '../../src/agent/verification/test-results/runners/tap-tree.js';

const count = (lines: string[]) => tapCounts(tapTree(lines.join('\n')).points);

describe("node-tap counted as tap's parser counts", () => {
  it('a subtest whose name holds a backslash (escaped in its point) is one more result, as in minimatch (6228, not 6173)', () => {
    expect(
      count([
        'TAP version 14',
        '1..1',
        '# Subtest: test/unc.ts',
        '    # Subtest: file \\\\',
        '        ok 1 - should be equal',
        '        1..1',
        '    ok 1 - file \\\\ # time=0.512ms',
        '    ',
        '    # Subtest: slash',
        '        ok 1 - should be equal',
        '        1..1',
        '    ok 2 - slash # time=0.5ms',
        '    ',
        '    1..2',
        'ok 1 - test/unc.ts # time=10ms',
        '',
        '# { total: 3, pass: 3 }',
      ]),
    ).toEqual({ passed: 3, failed: 0, skipped: 0, total: 3 });
  });

  it('names with #, across lines, or ending with { read otherwise than their # Subtest line: each subtest point counts', () => {
    const block = (n: number, header: string, point: string) => [
      `    # Subtest: ${header}`,
      '        ok 1 - x',
      '        1..1',
      `    ok ${n} - ${point} # time=1ms`,
      '    ',
    ];
    const file = [
      '# Subtest: test/a.js',
      ...block(1, 'issue \\#12', 'issue \\#12'),
      '    line',
      ...block(2, 'first', 'first line'),
      ...block(3, 'plain', 'plain'),
      ...block(4, 'brace {', 'brace {'),
      '    1..4',
      'ok 1 - test/a.js # time=5ms',
    ];
    expect(count(['TAP version 14', '1..1', ...file])).toEqual({ passed: 7, failed: 0, skipped: 0, total: 7 });
  });

  it("after a name ending with {, tap reads the next subtest (printed without its # Subtest line) as that name's block", () => {
    // tap 21 on `t.test('brace {', …); t.test('plain', …) with two assertions; t.test('after', …)`: `# { total: 5, pass: 5 }`.
    expect(
      count([
        'TAP version 14',
        '1..1',
        '# Subtest: test/a.js',
        '    # Subtest: brace {',
        '        ok 1 - x',
        '        1..1',
        '    ok 1 - brace { # time=4.629ms',
        '    ',
        '        ok 1 - y',
        '        ok 2 - z',
        '        1..2',
        '    ok 2 - plain # time=0.568ms',
        '    ',
        '    # Subtest: after',
        '        ok 1 - w',
        '        1..1',
        '    ok 3 - after # time=1.74ms',
        '    ',
        '    1..3',
        '    # time=17.817ms',
        'ok 1 - test/a.js # time=17.817ms',
      ]),
    ).toEqual({ passed: 5, failed: 0, skipped: 0, total: 5 });
  });

  it('a subtest that fails though every point of its block passed (an assertion after it ended) is one more failure', () => {
    expect(
      count([
        'TAP version 14',
        '1..1',
        '# Subtest: test/a.js',
        '    # Subtest: first',
        '        ok 1 - before',
        '        ok 2 - in first',
        '        1..2',
        '    not ok 1 - first # time=0.483ms',
        '      ---',
        '      at:',
        '        lineNumber: 6',
        '      ...',
        '    ',
        '    not ok 2 - test assertion after Promise resolution',
        '    1..2',
        'not ok 1 - test/a.js # time=76ms',
      ]),
    ).toEqual({ passed: 2, failed: 2, skipped: 0, total: 4 });
  });

  it('an empty subtest counts its own point; a point closing its block as the block came out (a missed plan: failed) does not', () => {
    expect(
      count([
        'TAP version 14',
        '# Subtest: test/a.js',
        '    # Subtest: short',
        '        ok 1 - one',
        '        1..3',
        '    not ok 1 - short',
        '    # Subtest: empty',
        '        1..0',
        '    ok 2 - empty',
        '    # Subtest: closes',
        '        ok 1 - fine',
        '        1..1',
        '    ok 3 - closes',
        '    1..3',
        'not ok 1 - test/a.js',
        '1..1',
      ]),
    ).toEqual({ passed: 3, failed: 0, skipped: 0, total: 3 });
  });

  it('a directive is read as tap reads it: after the first unescaped #, not inside the name', () => {
    const { points } = tapTree(
      ['TAP version 14', 'ok 1 - a \\# SKIP b', 'ok 2 - c # skip: not here', 'ok 3 - d # TODO', '1..3'].join('\n'),
    );
    expect(points.map((p) => [p.tapName, p.directive ?? '-'])).toEqual([
      ['a # SKIP b', '-'],
      ['c', 'skip'],
      ['d', 'todo'],
    ]);
  });
});

/**
 * The differential check: random TAP streams of node-tap's shape (files as `# Subtest:` blocks, nested
 * subtests up to three deep, names with backslashes, `#`, `{`, raw or escaped in their `# Subtest:` line,
 * bare `# Subtest` lines, skip and todo points, failures with YAML diagnostics that hold a point-like line,
 * plans first, last, wrong or missing, a repeated point number), each counted by the harness and by
 * tap-parser, the parser node-tap's own totals come from (tap's dependency, in this repository's
 * node_modules with tap): the counts are equal on every stream. Seeded, so a failure names its stream.
 */
function randomStream(seed: number): string {
  let s = seed;
  const rnd = (): number => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)] as T;
  const names = ['plain', 'a b', 'back \\ slash', 'hash # x', 'ends {', 'brace { mid', 'x \\# y', 'skip me', '{', 'trail '];
  const esc = (n: string): string => n.replace(/\\/g, '\\\\').replace(/#/g, '\\#');
  const block = (depth: number, lines: string[]): boolean => {
    const ind = '    '.repeat(depth);
    const out: string[] = [];
    const wrongPlan = rnd() < 0.1;
    let id = 0;
    let ok = true;
    for (let n = Math.floor(rnd() * 4); n > 0; n--) {
      id++;
      const dir = rnd() < 0.1 ? ' # SKIP' : rnd() < 0.1 ? ' # TODO' : '';
      if (depth < 3 && rnd() < 0.5) {
        const name = pick(names);
        out.push(rnd() < 0.05 ? `${ind}# Subtest` : `${ind}# Subtest: ${rnd() < 0.9 ? esc(name) : name}`);
        const inner = block(depth + 1, out);
        const pointOk = rnd() < 0.9 ? inner : !inner;
        out.push(`${ind}${pointOk ? 'ok' : 'not ok'} ${id} - ${esc(name)}${dir} # time=1ms`, ind);
        ok &&= pointOk || dir !== '';
      } else {
        const pointOk = rnd() < 0.85;
        out.push(`${ind}${pointOk ? 'ok' : 'not ok'} ${rnd() < 0.03 ? id + 1 : id} - ${esc(pick(names))}${dir}`);
        if (!pointOk && rnd() < 0.5) out.push(`${ind}  ---`, `${ind}  stack: |`, `${ind}    ok 9 - not a point`, `${ind}  ...`);
        ok &&= pointOk || dir !== '';
      }
    }
    const plan = `${ind}1..${id + (wrongPlan ? 1 : 0)}`;
    const r = rnd();
    lines.push(...(r < 0.05 ? out : r < 0.25 ? [plan, ...out] : [...out, plan]));
    return ok && !wrongPlan;
  };
  const lines = ['TAP version 14'];
  const files = 1 + Math.floor(rnd() * 2);
  for (let f = 1; f <= files; f++) {
    lines.push(`# Subtest: test/f${f}.js`);
    const ok = block(1, lines);
    lines.push(`${ok ? 'ok' : 'not ok'} ${f} - test/f${f}.js # time=1ms`, '');
  }
  lines.push(`1..${files}`);
  return `${lines.join('\n')}\n`;
}

async function tapParserCounts(text: string): Promise<{ passed: number; failed: number; skipped: number }> {
  const c = { passed: 0, failed: 0, skipped: 0 };
  const p = new Parser();
  p.on('result', (r: { ok: boolean; skip: unknown; todo: unknown }) => {
    c[r.todo || r.skip ? 'skipped' : r.ok ? 'passed' : 'failed']++;
  });
  await new Promise<void>((done) => {
    p.on('complete', () => done());
    p.end(text);
  });
  return c;
}

describe("node-tap's count equals tap-parser's on random streams of node-tap's shape", () => {
  it('1000 seeded streams, every one equal', async () => {
    const differ: number[] = [];
    for (let seed = 1; seed <= 1000; seed++) {
      const text = randomStream(seed);
      const mine = tapCounts(tapTree(text).points);
      const theirs = await tapParserCounts(text);
      if (mine.passed !== theirs.passed || mine.failed !== theirs.failed || mine.skipped !== theirs.skipped) differ.push(seed);
    }
    expect(differ).toEqual([]);
  });
});
