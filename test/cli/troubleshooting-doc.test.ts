/**
 * docs/troubleshooting.md quotes proofpr's exact messages: every ```text block of the page is found in
 * src/. A message is built from literals and run-time parts, so the block's `…` (a run-time part) and
 * its `: ` and `; ` joints (where the code joins a problem to its fix) split it into pieces, and each piece of
 * some length must be in the source text (string concatenations joined, escaped backticks unescaped).
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** All of src/ as one text: 'a ' +\n 'b' is 'a b', \` is `, \' is '. */
const src = sources('src')
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n')
  .replace(/(['"`])\s*\+\s*\1/g, '')
  .replace(/\\([`'"])/g, '$1');

const page = readFileSync('docs/troubleshooting.md', 'utf8');
const blocks = [...page.matchAll(/```text\n([\s\S]*?)\n```/g)].map((m) => m[1]!);

describe('docs/troubleshooting.md', () => {
  it('troubleshooting - names the failures people hit, and the README links it', () => {
    for (const h of [
      'not installed',
      'secret is missing',
      'waiting for approval',
      'setup command failed',
      'hosted runner',
      'AppArmor',
      'package manager',
    ])
      expect(page).toMatch(new RegExp(`^## .*${h}`, 'm'));
    expect(blocks.length).toBeGreaterThanOrEqual(12);
    expect(readFileSync('README.md', 'utf8')).toContain('(docs/troubleshooting.md)');
  });

  it.each(blocks.map((b) => [b.slice(0, 70), b]))('troubleshooting - the quoted message is in src/: %s', (_short, block) => {
    const pieces = block
      .split(/…|: |; /)
      .map((p) => p.trim())
      .filter((p) => p.length >= 12);
    expect(pieces.length).toBeGreaterThan(0);
    for (const p of pieces) expect({ piece: p, found: src.includes(p) }).toEqual({ piece: p, found: true });
  });
});
