/**
 * docs/security.md's threat table against the code (issue 15: "the threat table matches the code, and the
 * README's security section points to it"): the seven threats each have a row with both walls and what
 * remains; the control files and secret names it lists are the ones the one protected-paths predicate
 * protects; every source path and rule name it cites exists.
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CONTROL_FILE_PATTERNS, isControlPath, isSecretName, isTokenFileName, hasToken } from '../../src/workspace/protected-paths.js';
import { expectEach } from '../kit/walls-expect.js';
import { FAKE_NPM_TOKEN } from '../kit/fake-secrets.js';

const doc = readFileSync('docs/security.md', 'utf8');
const rows = doc
  .split('\n')
  .filter((l) => /^\| T\d+ \|/.test(l))
  .map((l) => l.split(' | ').map((c) => c.replace(/^\| |\s\|$/g, '').trim()));
const row = (id: string): string[] => rows.find((r) => r[0] === id) ?? [];
const code = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) =>
    statSync(join(dir, n)).isDirectory() ? sources(join(dir, n)) : n.endsWith('.ts') ? [join(dir, n)] : [],
  );
}

describe('docs/security.md threat table', () => {
  it('threat doc - one row per threat of the threat model, each with the bwrap wall, the wall without it and what remains', () => {
    expect(rows.map((r) => r[1]?.replace(/\*\*/g, '').split(' (')[0]?.split(':')[0])).toEqual([
      'exfiltration',
      'secret reads',
      'harness tampering',
      'persistence in committed files',
      'host escape',
      'plan-mode side effects',
      'resource exhaustion',
    ]);
    for (const r of rows) {
      expect({ row: r[0], cells: r.length }).toEqual({ row: r[0], cells: 5 });
      for (const c of r) expect(c.length).toBeGreaterThan(0);
    }
  });

  it('threat doc - the control files of row T4 are exactly the protected control patterns, and the code protects each one named', () => {
    const named = code(row('T4')[2] ?? '');
    const asDoc = (p: string): string => (p.endsWith('/**') ? p.slice(0, -2) : p);
    for (const p of CONTROL_FILE_PATTERNS) {
      const shown = asDoc(p);
      expect({
        pattern: p,
        named: named.includes(shown) || named.some((n) => n.endsWith('*') && shown.startsWith(n.slice(0, -1))),
      }).toEqual({ pattern: p, named: true });
    }
    for (const n of named.filter((x) => x.startsWith('.'))) {
      const sample = n.endsWith('/') ? `${n}x` : n.endsWith('*') ? n.slice(0, -1) : n;
      expect({ n, protected: isControlPath(sample) }).toEqual({ n, protected: true });
    }
    expect(isControlPath('.github/proofpr.yml')).toBe(true);
  });

  it('threat doc - row T2 masks by content, not by name: the formats it names are secrets to the code, fixtures are not', () => {
    const t2 = row('T2').join(' ');
    expect(t2).toMatch(/content matches a secret rule/);
    expect(t2).toMatch(/never a file for its name alone/);
    expect(hasToken(`//registry.npmjs.org/:_authToken=${FAKE_NPM_TOKEN}\n`)).toBe(true);
    expect(hasToken('db.internal:5432:app:app:Xk9#mP2!qL7zR4w\n')).toBe(true); // pgpass
    expect(hasToken('machine api.example.com login me password 9f8e7d6c5b4a39281706f5e4d3c2b1a0\n')).toBe(true); // netrc
    expect(hasToken('<password>{AQAAABAAAAAQ1kX9vB2mN7pL4rK8sT3wZ6yQ0cF5hJ=}</password>\n')).toBe(true); // Jenkins
    expect(hasToken('//registry.npmjs.org/:_authToken=npm_x\n')).toBe(false);
    expect(hasToken('BASIC=basic\nSECRET=xxx\n')).toBe(false);
    // The names remain a hint for ignore rules only (a .gitignore line that stops ignoring `.env`).
    expectEach(isSecretName, true, ['.env', '.env.local', 'id_rsa', '.netrc']);
    expectEach(isTokenFileName, true, ['.npmrc', '.pypirc', 'credentials.json']);
    expect(isSecretName('.env.example')).toBe(false);
  });

  it('threat doc - every source path and rule name it cites exists', () => {
    const cited = code(doc);
    const paths = cited.filter((c) => /^(src|test|bench)\//.test(c));
    expect(paths.length).toBeGreaterThan(3);
    for (const p of paths) expect({ p, exists: existsSync(p) }).toEqual({ p, exists: true });
    const rules = cited.filter((c) => /^builtin-deny:/.test(c));
    const src = sources('src')
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    for (const r of rules) expect({ r, inCode: src.includes(`'${r}'`) }).toEqual({ r, inCode: true });
  });

  it("threat doc - the README's security section points to it", () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Security model'), readme.indexOf('\n## ', readme.indexOf('## Security model') + 5));
    expect(section).toContain('](docs/security.md)');
    expect(section).toContain('threat');
  });
});
