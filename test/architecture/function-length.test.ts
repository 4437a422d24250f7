/** No function in src/ is longer than 80 lines (eslint max-lines-per-function; docs/architecture.md). */
import { describe, expect, it } from '@jest/globals';
import { resolve } from 'node:path';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: resolve('.') });

/** A function of exactly `lines` lines (header, body, closing brace); the body has a comment and a blank line. */
function probe(lines: number): string {
  const filler = Array.from({ length: lines - 6 }, (_, i) => `  n += ${i};`);
  return (
    ['export function probe(): number {', '  let n = 0;', '  // a comment counts', '', ...filler, '  return n;', '}'].join('\n') + '\n'
  );
}

async function tooLong(file: string, lines: number): Promise<boolean> {
  const text = probe(lines);
  expect(text.split('\n').length - 1).toBe(lines);
  const [res] = await eslint.lintText(text, { filePath: resolve(file) });
  return (res?.messages ?? []).some((m) => m.ruleId === 'max-lines-per-function');
}

describe('architecture - function length', () => {
  it('lint - a function of 81 lines in src/ is refused, one of 80 is not (blank lines and comments count)', async () => {
    expect(await tooLong('src/agent/loop.ts', 81)).toBe(true);
    expect(await tooLong('src/agent/loop.ts', 80)).toBe(false);
  });
});
