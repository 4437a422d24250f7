/**
 * docs/seeds.md lists every mechanism of the seeds with its status, the file and the test. This keeps the
 * table honest as the code moves: every path it names exists, every quoted test name is in the test file
 * named before it, every row has a status from the legend (with a reason unless it is present), and a
 * present mechanism names both its source and a test.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';

const DOC = 'docs/seeds.md';
const STATUS = /^(present\b|partial: \S|different on purpose: \S|not applicable: \S)/;

interface Row {
  line: number;
  cells: string[];
}

function rows(): Row[] {
  return readFileSync(DOC, 'utf8')
    .split('\n')
    .flatMap((text, i) =>
      /^\| 00[0-3] /.test(text)
        ? [
            {
              line: i + 1,
              cells: text
                .split('|')
                .slice(1, -1)
                .map((c) => c.trim()),
            },
          ]
        : [],
    );
}

/** The where-cell's paths in order, each with the quoted test names that follow it. */
function references(where: string): Array<{ path: string; titles: string[] }> {
  const out: Array<{ path: string; titles: string[] }> = [];
  for (const m of where.matchAll(/`((?:src|test|docs|bench)\/[^`]*)`|"([^"]+)"/g)) {
    if (m[1]) out.push({ path: m[1], titles: [] });
    else if (m[2]) out[out.length - 1]?.titles.push(m[2]);
  }
  return out;
}

describe('docs/seeds.md', () => {
  const table = rows();

  it('seeds doc - lists the mechanisms of all four seeds, each row with four cells', () => {
    expect(table.length).toBeGreaterThan(150);
    for (const seed of ['000', '001', '002', '003']) expect(table.some((r) => r.cells[0]?.startsWith(seed))).toBe(true);
    const bad = table.filter((r) => r.cells.length !== 4).map((r) => `line ${r.line}: ${r.cells.length} cells`);
    expect(bad).toEqual([]);
  });

  it('seeds doc - every status is from the legend; nothing is "absent" without a reason', () => {
    const bad = table.filter((r) => !STATUS.test(r.cells[2] ?? '')).map((r) => `line ${r.line}: ${r.cells[2]}`);
    expect(bad).toEqual([]);
    const absent = table.filter((r) => /\babsent\b/i.test(r.cells[2] ?? '') && !/absent[^|]*:\s*\S/.test(r.cells[2] ?? ''));
    expect(absent.map((r) => r.line)).toEqual([]);
  });

  it('seeds doc - every named path exists and every quoted test name is in its test file', () => {
    const missing: string[] = [];
    for (const r of table) {
      for (const ref of references(r.cells[3] ?? '')) {
        if (!existsSync(ref.path)) {
          missing.push(`line ${r.line}: ${ref.path} does not exist`);
          continue;
        }
        const text = ref.titles.length > 0 ? readFileSync(ref.path, 'utf8') : '';
        for (const t of ref.titles) if (!text.includes(t)) missing.push(`line ${r.line}: "${t}" is not in ${ref.path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('seeds doc - a present mechanism names its source and a test', () => {
    const bad = table
      .filter((r) => /^present\b/.test(r.cells[2] ?? ''))
      .filter((r) => {
        const paths = references(r.cells[3] ?? '').map((x) => x.path);
        return !paths.some((p) => p.startsWith('src/')) || !paths.some((p) => p.startsWith('test/'));
      })
      .map((r) => `line ${r.line}: ${r.cells[1]}`);
    expect(bad).toEqual([]);
  });
});
