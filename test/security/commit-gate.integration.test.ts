import { describe, it, expect, beforeEach } from '@jest/globals';
import { protectedChangesNow } from '../../src/agent/verification/gates/protected-changes.js';
import { commitWork } from '../../src/workspace/publish.js';
import { renderSummaryMd } from '../../src/agent/evidence/summary-md.js';
import { tempDir } from '../kit/temp.js';
import { git as gitIn } from '../tools/helpers/context.js';
import { writeFiles } from '../workspace/git-fixtures.js';
import { closeWorld, openWorld, worldMasked } from '../../src/workspace/world.js';

/** Real-shaped (fake) credentials: a secret is judged by what a file holds, not by its name. */
const AWS_ID = 'AKIAQ3EGRT7TWPKLMZ4N';
const AWS_SECRET = 'kR7vB2xN9qL4mT8wZ1cF6hJ3pS5dG0yU2eA7iO4n';
const PEM = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n-----END PRIVATE KEY-----\n';

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
  put('.env', `AWS_ACCESS_KEY_ID=${AWS_ID}\nAWS_SECRET_ACCESS_KEY=${AWS_SECRET}\n`);
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

  it('commit gate - a .gitignore change that un-ignores .env fails (the .env itself, ignored by the base, never enters a tree)', async () => {
    put('.gitignore', 'node_modules/\n*.pem\n');
    const g = await gate('protected-paths');
    expect(g?.passed).toBe(false);
    expect(g?.detail).toMatch(/\.gitignore removes "\.env"/);
  });

  it('commit gate - a negated ignore line and a committed private key fail', async () => {
    put('.gitignore', 'node_modules/\n.env\n*.pem\n!deploy.pem\n');
    put('deploy.pem', PEM);
    put('keys/deploy.key.txt', PEM);
    const g = await gate('protected-paths');
    expect(g?.detail).toMatch(/adds "!deploy\.pem"/);
    expect(g?.detail).toMatch(/keys\/deploy\.key\.txt holds a secret by its content/);
  });

  it('commit gate - a new .env of test fixtures is ordinary content; a credential file under any name is not', async () => {
    put('test/fixtures/.env', 'BASIC=basic\nSECRET=xxx\nPASSWORD=test\n');
    expect(await gate('protected-paths')).toMatchObject({ passed: true });
    put('fixtures/a.txt', 'db.internal:5432:app:app_rw:Xk9#mP2!qL7zR4w\n');
    const g = await gate('protected-paths');
    expect(g?.detail).toMatch(/fixtures\/a\.txt holds a secret by its content \(pgpass\)/);
  });

  it("commit gate - a copy of a masked file's secret under another name (raw or base64) is refused, and the commit leaves it out", async () => {
    put('config/aws.env', `AWS_ACCESS_KEY_ID=${AWS_ID}\nAWS_SECRET_ACCESS_KEY=${AWS_SECRET}\n`);
    git('add', '-A');
    git('commit', '-qm', 'tracked secret');
    base = git('rev-parse', 'HEAD');
    openWorld(root);
    try {
      expect(worldMasked(root)).toEqual(['.env', 'config/aws.env']);
      put('src/settings.js', `module.exports = { s: ${JSON.stringify(AWS_SECRET.slice(0, 40))} };\n`);
      put('docs/notes.md', `${Buffer.from(AWS_SECRET).toString('base64')}\n`);
      const g = await gate('protected-paths');
      expect(g?.passed).toBe(false);
      expect(g?.detail).toMatch(/src\/settings\.js carries the secret of a masked file/);
      expect(g?.detail).toMatch(/docs\/notes\.md carries the secret of a masked file/);
      const identity = { name: 'proofpr[bot]', email: 'bot@example.com' };
      const r = await commitWork({ worktree: root, message: 'wip', identity, protect: {}, leaveOutProtected: true });
      expect((r.leftOut ?? []).map((l) => l.path).filter((p) => p !== '.env')).toEqual(['docs/notes.md', 'src/settings.js']);
    } finally {
      closeWorld(root);
    }
    // The run is over: its masked secrets are forgotten.
    expect(await gate('protected-paths')).toMatchObject({ passed: true });
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
