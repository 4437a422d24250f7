/**
 * Small Node projects with a written history, built in a temp git repository by the tests: each commit
 * is a set of files (content, or null to remove) and a message.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../kit/temp.js';

export interface FixtureCommit {
  message: string;
  files: Record<string, string | null>;
}

export function gitIn(cwd: string, args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();
}

/** A temp folder with `repo/` holding `commits` in order; returns the folder and each commit's id. */
export function fixtureHistory(commits: readonly FixtureCommit[]): { work: string; repo: string; ids: string[] } {
  const work = tempDir('proofpr-backtest-fixture-');
  const repo = join(work, 'repo');
  mkdirSync(repo);
  gitIn(repo, ['init', '-q', '-b', 'main']);
  const ids: string[] = [];
  for (const c of commits) {
    for (const [path, content] of Object.entries(c.files)) {
      const p = join(repo, path);
      if (content === null) rmSync(p, { force: true });
      else {
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, content);
      }
    }
    gitIn(repo, ['add', '-A']);
    gitIn(repo, ['commit', '-q', '-m', c.message]);
    ids.push(gitIn(repo, ['rev-parse', 'HEAD']));
  }
  return { work, repo, ids };
}

/** .github/proofpr.yml naming the test command (no npm in between: quicker runs). */
export const config = (test: string): string => `test:\n  command: ${test}\n`;

export const pkg = (test: string): string =>
  `${JSON.stringify({ name: 'calc', private: true, type: 'module', scripts: { test } }, null, 2)}\n`;

/** src/math.js with the given bodies. */
export const math = (add: string, mul: string): string =>
  `export const add = (a, b) => ${add};\nexport const sub = (a, b) => a - b;\nexport const mul = (a, b) => ${mul};\n`;

/** A node:test file with one test per [name, expression]. */
export const nodeTest = (cases: ReadonlyArray<[string, string]>): string =>
  [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { add, sub, mul } from '../src/math.js';",
    ...cases.map(([name, expr]) => `test('${name}', () => assert.ok(${expr}));`),
    '',
  ].join('\n');
