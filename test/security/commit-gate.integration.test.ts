import { describe, it, expect, beforeEach } from '@jest/globals';
import { protectedChangesNow } from '../../src/agent/verification/gates/protected-changes.js';
import { commitWork } from '../../src/workspace/publish.js';
import { renderSummaryMd } from '../../src/agent/evidence/summary-md.js';
import { tempDir } from '../kit/temp.js';
import { git as gitIn } from '../tools/helpers/context.js';
import { writeFiles } from '../workspace/git-fixtures.js';

let root: string;
let base: string;
const put = (rel: string, content: string): void => writeFiles(root, { [rel]: content });
const git = (...args: string[]): string => gitIn(root, ...args).trim();

beforeEach(() => {
  root = tempDir('proofpr-commit-gate-');
  git('init', '-q');
  put('.gitignore', 'node_modules/\n.env\n*.pem\n');
  put('.github/proofpr.yml', 'test:\n  command: npm test\n');
  put('.husky/pre-commit', 'npm test\n');
  put('package.json', JSON.stringify({ name: 'x', scripts: { test: 'node --test', build: 'tsc' } }, null, 2));
  put('src/a.js', 'module.exports = 1;\n');
  put('.env', 'API_KEY=1\n');
  git('add', '-A');
  git('commit', '-qm', 'base');
  base = git('rev-parse', 'HEAD');
});

const gate = async (name: string, writable: string[] = []) =>
  (await protectedChangesNow(root, base, { writable })).find((g) => g.name === name);

describe('commit gate: nothing that leaks or persists', () => {
  it('commit gate - an ordinary change passes both gates', async () => {
    put('src/a.js', 'module.exports = 2;\n');
    expect(await gate('protected-paths')).toMatchObject({ passed: true });
    expect(await gate('lifecycle-scripts')).toMatchObject({ passed: true });
  });

  it('commit gate - a .gitignore change that un-ignores .env fails, and so does the newly tracked .env', async () => {
    put('.gitignore', 'node_modules/\n*.pem\n');
    const g = await gate('protected-paths');
    expect(g?.passed).toBe(false);
    expect(g?.detail).toMatch(/\.gitignore removes "\.env"/);
    expect(g?.detail).toMatch(/\.env looks like a secret file .* newly tracked/);
  });

  it('commit gate - a negated ignore line and a committed private key fail', async () => {
    put('.gitignore', 'node_modules/\n.env\n*.pem\n!deploy.pem\n');
    put('deploy.pem', '-----BEGIN PRIVATE KEY-----\nx\n');
    const g = await gate('protected-paths');
    expect(g?.detail).toMatch(/adds "!deploy\.pem"/);
    expect(g?.detail).toMatch(/deploy\.pem looks like a secret/);
  });

  it('commit gate - control files fail unless permissions.writable opens them', async () => {
    put('.github/proofpr.yml', 'test:\n  command: "true"\n');
    put('.husky/pre-commit', 'curl x\n');
    const g = await gate('protected-paths');
    expect(g?.passed).toBe(false);
    expect(g?.detail).toMatch(/\.github\/proofpr\.yml is a control file/);
    expect(g?.detail).toMatch(/\.husky\/pre-commit is a control file/);
    expect(await gate('protected-paths', ['.github/proofpr.yml', '.husky/**'])).toMatchObject({ passed: true });
  });

  it('commit gate - lifecycle script changes are listed, fail unless allowed, and get their own heading in the PR body', async () => {
    put(
      'package.json',
      JSON.stringify(
        { name: 'x', scripts: { test: 'node --test', build: 'tsc --build', postinstall: 'node evil.js', pretest: 'curl x' } },
        null,
        2,
      ),
    );
    const g = await gate('lifecycle-scripts');
    expect(g?.passed).toBe(false);
    expect(g?.detail).toMatch(/package\.json scripts\.postinstall: \(none\) → `node evil\.js`/);
    expect(g?.detail).toMatch(/scripts\.pretest/);
    expect(g?.detail).not.toMatch(/scripts\.build/);
    expect(await gate('lifecycle-scripts', ['package.json#scripts'])).toMatchObject({ passed: true });
    const md = renderSummaryMd({
      version: 1,
      runId: 'r',
      repo: { branch: 'proofpr/x', baseSha: base },
      verdict: 'unverified',
      reason: 'gate failed',
      task: { kind: 'fix', title: 't' },
      startedAt: 'x',
      endedAt: 'y',
      gates: [g as { name: string; passed: boolean; detail: string }],
      testRuns: [],
      filesChanged: [],
      toolCalls: {},
      denied: [],
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, turns: 0, compactions: 0 },
    } as unknown as Parameters<typeof renderSummaryMd>[0]);
    expect(md).toMatch(/### Package lifecycle scripts changed\n\n- package\.json scripts\.postinstall/);
  });

  it('commit gate - the commit itself refuses a control-file change or a new secret when protect is given', async () => {
    put('.husky/pre-commit', 'curl x\n');
    const identity = { name: 'proofpr[bot]', email: 'bot@example.com' };
    await expect(commitWork({ worktree: root, message: 'fix', identity, protect: {} })).rejects.toThrow(
      /refusing to commit \.husky\/pre-commit \(control file, changed\)/,
    );
    expect(git('rev-parse', 'HEAD')).toBe(base);
    const ok = await commitWork({ worktree: root, message: 'fix', identity, protect: { writable: ['.husky/**'] } });
    expect('sha' in ok).toBe(true);
  });
});
