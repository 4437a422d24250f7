/**
 * `proofpr gc`: old run folders go, new ones stay; unused mirrors go unless they hold unpushed work;
 * empty proofpr/* branches (no commit of their own) are deleted, WIP branches are kept.
 */
import { describe, expect, it } from '@jest/globals';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gcCommand } from '../../src/hosts/cli/gc-command.js';
import { tempDir } from '../kit/temp.js';
import { gitIn } from '../kit/host-repo.js';

const g = (cwd: string, ...args: string[]): string => gitIn(cwd, ...args).trim();

function repoWithBranches(): string {
  const dir = tempDir('proofpr-gc-');
  g(dir, 'init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'a.txt'), 'a\n');
  g(dir, 'add', '-A');
  g(dir, 'commit', '-q', '-m', 'base');
  g(dir, 'branch', 'proofpr/1-nothing-done');
  g(dir, 'checkout', '-q', '-b', 'proofpr/2-wip');
  writeFileSync(join(dir, 'a.txt'), 'a\nwip\n');
  g(dir, 'commit', '-q', '-am', 'WIP: unverified');
  g(dir, 'checkout', '-q', 'main');
  return dir;
}

const old = (p: string): void => {
  const t = new Date(Date.now() - 40 * 86_400_000);
  utimesSync(p, t, t);
};

describe('proofpr gc', () => {
  it('gc - removes old run folders and empty proofpr branches, keeps new runs and WIP branches', async () => {
    const home = tempDir('proofpr-gc-');
    for (const r of ['20250101-old', '20261201-new']) mkdirSync(join(home, 'runs', r), { recursive: true });
    old(join(home, 'runs', '20250101-old'));
    const repo = repoWithBranches();
    const lines: string[] = [];
    expect(await gcCommand({ repo, olderThanDays: '30' }, { PROOFPR_HOME: home }, (s) => lines.push(s))).toBe(0);
    expect(readdirSync(join(home, 'runs'))).toEqual(['20261201-new']);
    expect(
      g(repo, 'branch', '--list', 'proofpr/*')
        .split('\n')
        .map((l) => l.trim()),
    ).toEqual(['proofpr/2-wip']);
    expect(lines.join('')).toContain('deleted 1 empty (proofpr/1-nothing-done), kept 1 with work (proofpr/2-wip)');
  });

  it('gc - an unused mirror goes; one holding unpushed WIP stays; --dry-run removes nothing', async () => {
    const home = tempDir('proofpr-gc-');
    const plain = tempDir('proofpr-gc-');
    g(plain, 'init', '-q', '-b', 'main');
    writeFileSync(join(plain, 'x'), 'x\n');
    g(plain, 'add', '-A');
    g(plain, 'commit', '-q', '-m', 'x');
    const unused = join(home, 'mirrors', 'github.com', 'acme', 'plain.git');
    const withWip = join(home, 'mirrors', 'github.com', 'acme', 'wip.git');
    mkdirSync(join(home, 'mirrors', 'github.com', 'acme'), { recursive: true });
    g(home, 'clone', '-q', '--bare', plain, unused);
    g(home, 'clone', '-q', '--bare', repoWithBranches(), withWip);
    for (const m of [unused, withWip]) for (const f of ['HEAD', 'packed-refs', 'refs']) if (existsSync(join(m, f))) old(join(m, f));
    await gcCommand({ dryRun: true }, { PROOFPR_HOME: home }, () => undefined);
    expect(existsSync(unused)).toBe(true);
    await gcCommand({}, { PROOFPR_HOME: home }, () => undefined);
    expect(existsSync(unused)).toBe(false);
    expect(existsSync(withWip)).toBe(true);
    expect(
      g(withWip, 'branch', '--list', 'proofpr/*')
        .split('\n')
        .map((l) => l.trim()),
    ).toEqual(['proofpr/2-wip']);
  });
});
