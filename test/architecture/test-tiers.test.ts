/**
 * The test suite's own layout (docs/testing.md): every test file is in exactly one tier of jest.config.js,
 * a unit file starts no process (the runtime guard in test/kit/unit-guard.ts makes that throw; this keeps
 * the direct imports out too), and temp folders come from one helper (test/kit/temp.ts).
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fg from 'fast-glob';
import { TIERS } from '../../jest.config.js';

const root = resolve('.');
type Tier = { testMatch: string[]; testPathIgnorePatterns: string[] };
const tiers = TIERS as Record<string, Tier>;

/** The files a tier's globs select, less its ignore patterns: what jest itself would run in that project. */
function filesOf(tier: Tier): Set<string> {
  const globs = tier.testMatch.map((g) => g.replace('<rootDir>/', ''));
  const ignore = tier.testPathIgnorePatterns.map((p) => new RegExp(p.replace('<rootDir>', root)));
  const files = fg.sync(globs, { cwd: root, ignore: ['**/node_modules/**'] });
  return new Set(files.filter((f) => !ignore.some((re) => re.test(`${root}/${f}`))));
}

const all = fg.sync(['test/**/*.test.ts'], { cwd: root, ignore: ['**/node_modules/**'] }).sort();
const byTier = Object.fromEntries(Object.entries(tiers).map(([name, t]) => [name, filesOf(t)]));

describe('test tiers', () => {
  it('tiers - the suite has unit, integration and e2e files', () => {
    expect(Object.keys(byTier)).toEqual(['unit', 'integration', 'e2e']);
    for (const files of Object.values(byTier)) expect(files.size).toBeGreaterThan(10);
  });

  it('tiers - every test file is in exactly one tier, and its name or folder says which', () => {
    const wrong = all
      .map((f) => ({ f, in: Object.keys(byTier).filter((t) => byTier[t]?.has(f)) }))
      .filter((x) => x.in.length !== 1)
      .map((x) => `${x.f}: ${x.in.join(', ') || 'no tier'}`);
    expect(wrong).toEqual([]);
    for (const f of byTier.e2e ?? []) expect(f.startsWith('test/e2e/') || f.endsWith('.e2e.test.ts')).toBe(true);
    for (const f of byTier.integration ?? []) expect(f.endsWith('.integration.test.ts')).toBe(true);
  });

  it('tiers - a unit file imports nothing that starts processes (the runtime guard refuses what it calls)', () => {
    const modules = ['child_process', 'node:child_process', 'execa', 'simple-git'];
    const imports = (text: string): string[] =>
      [...text.matchAll(/^import [^;]*? from '([^']+)';$|\bimport\('([^']+)'\)/gm)].map((m) => m[1] ?? m[2] ?? '');
    const offenders = [...(byTier.unit ?? [])].filter((f) => imports(readFileSync(f, 'utf8')).some((m) => modules.includes(m)));
    expect(offenders).toEqual([]);
  });

  it('kit - temp folders come from test/kit/temp.ts only (real paths, removed when the file ends)', () => {
    const sources = fg.sync(['test/**/*.{ts,mjs,js}'], {
      cwd: root,
      ignore: ['**/node_modules/**', 'test/fixtures/**', 'test/e2e/projects/**'],
    });
    const own = sources.filter((f) => f !== 'test/kit/temp.ts' && /\bmkdtemp(Sync)?\s*\(/.test(readFileSync(f, 'utf8')));
    expect(own).toEqual([]);
  });
});
