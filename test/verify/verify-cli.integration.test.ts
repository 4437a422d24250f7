/**
 * `proofpr verify --repo DIR --base REF --head REF` (issue 40, CONTRACT §11) on a fixture repository:
 * the base has a bug and its tests; the head branches are, by rule, (1) the honest fix: the source change
 * with a new test that fails without it, (2) its test-only half: the same new test without the source
 * change, (3) a change that weakens the head's own config (`test.command: "true"`) on top of the test-only
 * half: the base's config judges it, so it stays unverified, (4) the fix through a merge commit onto a base
 * that moved on (the merge base is the base). Expected: (1) and (4) verified, exit 0; (2) and (3)
 * unverified, exit 3; bad input exit 2 (UsageError naming the flag). Every case: no model is asked
 * (ANTHROPIC_BASE_URL points at a closed port), and the repository verified is unchanged afterwards
 * (refs, objects, worktrees, the checked-out files).
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyCommand } from '../../src/hosts/cli/verify-command.js';
import type { Evidence } from '../../src/agent/evidence/types.js';
import { config, fixtureHistory, gitIn, math, nodeTest, pkg } from '../backtest/fixture-history.js';

function fixture() {
  const made = fixtureHistory([
    {
      message: 'initial: add subtracts',
      files: {
        '.github/proofpr.yml': config('node --test'),
        'package.json': pkg('node --test'),
        'src/math.js': math('a - b', 'a * b'),
        'test/math.test.js': nodeTest([
          ['sub', 'sub(3, 1) === 2'],
          ['mul', 'mul(2, 3) === 6'],
        ]),
      },
    },
  ]);
  const { repo } = made;
  const base = made.ids[0]!;
  const commit = (branch: string, files: Record<string, string>, message: string): string => {
    gitIn(repo, ['checkout', '-q', '-B', branch, base]);
    for (const [p, c] of Object.entries(files))
      execFileSync('sh', ['-c', `mkdir -p "$(dirname "${p}")" && cat > "${p}"`], { cwd: repo, input: c });
    gitIn(repo, ['add', '-A']);
    gitIn(repo, ['commit', '-q', '-m', message]);
    return gitIn(repo, ['rev-parse', 'HEAD']);
  };
  const addTest = nodeTest([
    ['add', 'add(2, 2) === 4'],
    ['add negative', 'add(-1, 1) === 0'],
  ]);
  commit('fix', { 'src/math.js': math('a + b', 'a * b'), 'test/add.test.js': addTest }, 'fix add: it subtracted');
  commit('test-only', { 'test/add.test.js': addTest }, 'test add');
  commit('weak-config', { 'test/add.test.js': addTest, '.github/proofpr.yml': config('"true"') }, 'test add, run no tests');
  // The base moves on (a docs commit); the fix branch is merged with it: the merge base is still `base`.
  const moved = commit('main', { 'README.md': '# calc\n' }, 'docs');
  gitIn(repo, ['checkout', '-q', '-B', 'merged', 'fix']);
  gitIn(repo, ['merge', '-q', '--no-edit', moved]);
  gitIn(repo, ['checkout', '-q', 'main']);
  return { ...made, base, moved };
}

/** What verify must not change in the repository it verifies. */
function repoState(repo: string): string {
  const g = (args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' });
  return [
    g(['for-each-ref']),
    g(['count-objects', '-v']),
    g(['worktree', 'list', '--porcelain']),
    g(['status', '--porcelain', '--ignored']),
  ].join('\n');
}

describe('proofpr verify on a fixture repository (no model, nothing written to it)', () => {
  const made = fixture();
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PROOFPR_HOME: join(made.work, 'home'),
    // A model request would fail to connect: verify makes none.
    ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
    ANTHROPIC_API_KEY: 'sk-ant-api03-verify-test-never-used',
  };

  async function verify(
    base: string,
    head: string,
    name: string,
  ): Promise<{ code: number; evidence: Evidence; stdout: string; out: string }> {
    const before = repoState(made.repo);
    const out = join(made.work, 'runs', name);
    let stdout = '';
    const code = await verifyCommand(
      { repo: made.repo, base, head, out, json: true },
      { env, stdout: (s) => (stdout += s), stderr: () => undefined },
    );
    expect(repoState(made.repo)).toBe(before);
    const evidence = JSON.parse(readFileSync(join(out, 'evidence.json'), 'utf8')) as Evidence;
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toMatchObject({ verdict: evidence.verdict });
    expect(existsSync(join(out, 'summary.md'))).toBe(true);
    expect(evidence.usage.turns).toBe(0);
    return { code, evidence, stdout, out };
  }

  it('verify - the honest fix is verified: baseline on the base, final run on the head, red→green, exit 0', async () => {
    const { code, evidence } = await verify(made.base, 'fix', 'fix');
    expect(evidence.verdict).toBe('verified');
    expect(code).toBe(0);
    expect(evidence.repo.baseSha).toBe(made.base);
    expect(evidence.gates.find((g) => g.name === 'red-green')).toMatchObject({ passed: true });
    const kinds = evidence.testRuns.map((r) => r.kind);
    expect(kinds).toContain('baseline');
    expect(kinds).toContain('final');
    const final = evidence.testRuns.find((r) => r.kind === 'final')!;
    expect(final.counts).toMatchObject({ passed: 4, failed: 0 });
    expect(evidence.filesChanged.map((f) => f.path).sort()).toEqual(['src/math.js', 'test/add.test.js']);
  }, 300_000);

  it('verify - the test-only half is unverified (its new tests fail on the head), exit 3', async () => {
    const { code, evidence } = await verify(made.base, 'test-only', 'test-only');
    expect(evidence.verdict).toBe('unverified');
    expect(code).toBe(3);
    expect(evidence.gates.find((g) => g.name === 'tests-passed')).toMatchObject({ passed: false });
  }, 300_000);

  it("verify - the head's own config does not judge it: a head that sets test.command to `true` is still run with the base's", async () => {
    const { code, evidence } = await verify(made.base, 'weak-config', 'weak-config');
    expect(evidence.test?.command).toBe('node --test');
    expect(evidence.verdict).toBe('unverified');
    expect(code).toBe(3);
  }, 300_000);

  it('verify - a merge of the fix with a moved base is measured from the merge base: verified, the docs commit not in the change', async () => {
    const { code, evidence } = await verify('main', 'merged', 'merged');
    expect(code).toBe(0);
    expect(evidence.repo.baseSha).toBe(made.moved);
    expect(evidence.filesChanged.map((f) => f.path).sort()).toEqual(['src/math.js', 'test/add.test.js']);
  }, 300_000);

  it('verify - bad input names the flag (exit 2 through UsageError)', async () => {
    const opts = { env, stdout: () => undefined, stderr: () => undefined };
    await expect(verifyCommand({ repo: made.repo, base: 'no-such-ref', head: 'fix' }, opts)).rejects.toThrow(
      /--base no-such-ref: no such commit/,
    );
    await expect(verifyCommand({ repo: made.repo, base: made.base }, opts)).rejects.toThrow(/--head is missing/);
    await expect(verifyCommand({ repo: made.repo, base: made.base, head: 'fix', githubRepo: 'o/r', pr: '1' }, opts)).rejects.toThrow(
      /two ways/,
    );
    await expect(verifyCommand({ repo: made.work, base: 'a', head: 'b' }, opts)).rejects.toThrow(/not a git repository/);
    await expect(verifyCommand({ githubRepo: 'o/r', pr: 'x' }, opts)).rejects.toThrow(/--pr must be a pull request number/);
  });
});
