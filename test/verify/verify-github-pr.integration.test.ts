/**
 * `proofpr verify --github-repo OWNER/NAME --pr N` (issue 40, CONTRACT §11): the pull request read through
 * the API (GITHUB_API_URL: the GitHub stand-in), its head (`refs/pull/N/head`) and base branch fetched
 * with the token from a local bare repository served over git HTTP, verified with the base branch's
 * config. The CLI writes nothing to GitHub (no check run, no comment). An unknown PR is bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startFakeGitHubServer, type FakeGitHubServer } from '../fakes/github/server.js';
import { tempDir } from '../kit/temp.js';
import { verifyCommand } from '../../src/hosts/cli/verify-command.js';
import type { Evidence } from '../../src/agent/evidence/types.js';

const TOKEN = 'ghs_fakeCliVerifyToken0123456789abcdefXY';
const g = (cwd: string, args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

function commit(dir: string, files: Record<string, string>, message: string): string {
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
  g(dir, ['add', '-A']);
  g(dir, ['commit', '-q', '-m', message]);
  return g(dir, ['rev-parse', 'HEAD']);
}

const nodeTest = (name: string, expr: string) =>
  `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/math.js';\ntest('${name}', () => assert.ok(${expr}));\n`;

describe('proofpr verify --github-repo --pr (the GitHub stand-in, a local bare remote)', () => {
  const work = tempDir('proofpr-verify-gh-');
  let gh: FakeGitHubServer;
  let headSha = '';

  beforeAll(async () => {
    const seed = join(work, 'seed');
    mkdirSync(seed);
    g(seed, ['init', '-q', '-b', 'main']);
    const base = commit(
      seed,
      {
        '.github/proofpr.yml': 'test:\n  command: node --test\n',
        'package.json': '{ "name": "calc", "private": true, "type": "module" }\n',
        'src/math.js': 'export const add = (a, b) => a - b;\n',
        'test/zero.test.js': nodeTest('zero', 'add(0, 0) === 0'),
      },
      'initial',
    );
    headSha = commit(
      seed,
      { 'src/math.js': 'export const add = (a, b) => a + b;\n', 'test/add.test.js': nodeTest('add', 'add(2, 2) === 4') },
      'fix',
    );
    const bare = join(work, 'git', 'acme', 'widgets.git');
    g(work, ['clone', '-q', '--bare', seed, bare]);
    g(bare, ['update-ref', 'refs/heads/main', base]);
    g(bare, ['update-ref', 'refs/pull/5/head', headSha]);
    gh = await startFakeGitHubServer({
      git: { root: join(work, 'git'), token: TOKEN },
      bareDir: bare,
      config: 'test:\n  command: node --test\n',
      pulls: [{ number: 5, title: 'Fix add', head: 'fix-add', headSha, headRepo: 'stranger/widgets', base: 'main', author: 'stranger' }],
    });
  }, 60_000);

  afterAll(async () => gh?.close());

  const env = () => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PROOFPR_HOME: join(work, 'home'),
    GITHUB_TOKEN: TOKEN,
    GITHUB_API_URL: gh.apiUrl,
    GITHUB_SERVER_URL: gh.url,
  });

  it('verify --pr - the fork PR is fetched and verified (exit 0); nothing is written to GitHub', async () => {
    const out = join(work, 'run');
    let stdout = '';
    const code = await verifyCommand(
      { githubRepo: 'acme/widgets', pr: '5', out, json: true },
      { env: env(), stdout: (s) => (stdout += s), stderr: () => undefined },
    );
    const evidence = JSON.parse(readFileSync(join(out, 'evidence.json'), 'utf8')) as Evidence;
    expect({ code, verdict: evidence.verdict, reason: evidence.reason }).toMatchObject({ code: 0, verdict: 'verified' });
    expect(evidence.repo).toMatchObject({ fullName: 'acme/widgets', headSha, branch: 'fix-add' });
    expect(evidence.task.title).toBe('Fix add');
    expect(stdout).toContain('verified: every gate passed on the head');
    expect(gh.state.checkRuns).toEqual([]);
    expect(gh.state.calls.filter((c) => c.method !== 'GET')).toEqual([]);
    expect(gh.gitRequests.length).toBeGreaterThan(0);
    expect(gh.gitRequests.every((r) => r.authorized)).toBe(true);
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).not.toContain(TOKEN);
  }, 300_000);

  it('verify --pr - a pull request that does not exist is bad input naming --pr', async () => {
    await expect(
      verifyCommand({ githubRepo: 'acme/widgets', pr: '404' }, { env: env(), stdout: () => undefined, stderr: () => undefined }),
    ).rejects.toThrow(/--pr 404: no such pull request in acme\/widgets/);
  });
});
