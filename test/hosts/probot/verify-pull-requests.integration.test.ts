/**
 * The App with `verify.pull_requests: true` (issue 40, CONTRACT §11): a `pull_request` event for a PR
 * opened by another user, from a fork, ends with the check run `proofpr/verified` on its head sha,
 * computed with no model (no ANTHROPIC key given to anything), the head fetched over git from the
 * repository's `refs/pull/N/head` (a local bare repository behind the GitHub stand-in's git HTTP), the
 * config read from the base branch. With the key off (the default), the event does nothing. The test
 * command checks the walls from inside: it fails when it sees a token or key in its environment (the
 * App's process has ANTHROPIC_API_KEY, GITHUB_TOKEN and PRIVATE_KEY-like variables set), or when it can read
 * proofpr's home (the sandbox hides it as for every run), so a verified check proves neither reached it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startFakeGitHubServer, type FakeGitHubServer } from '../../fakes/github/server.js';
import { tempDir } from '../../kit/temp.js';
import { startHarness, until, type Harness } from './harness.js';
import type { PullRequestOutcome } from '../../../src/hosts/probot/on-pull-request.js';

const TOKEN = 'ghs_fakeinstallationtoken000000000000000';
const g = (cwd: string, args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

/** The test file's walls check: no secret-looking variable, and the host's home unreadable. */
const wallsTest = (home: string): string =>
  [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { existsSync } from 'node:fs';",
    "test('no secret in the environment', () => assert.deepEqual(Object.keys(process.env).filter((k) => /TOKEN|KEY|SECRET|PRIVATE/i.test(k)), []));",
    `test("proofpr's home is hidden", () => assert.equal(existsSync(${JSON.stringify(join(home, 'marker.txt'))}), false));`,
    '',
  ].join('\n');

function write(dir: string, files: Record<string, string>): void {
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
}

const math = (add: string) => `export const add = (a, b) => ${add};\n`;
const addTest =
  "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/math.js';\ntest('add', () => assert.equal(add(2, 2), 4));\n";

describe('the App posts proofpr/verified on pull requests (verify.pull_requests)', () => {
  let gh: FakeGitHubServer;
  let h: Harness;
  let headSha = '';
  let baseSha = '';
  const outcomes: Array<{ outcome: PullRequestOutcome; done?: Promise<void> }> = [];
  const work = tempDir('proofpr-verify-app-');
  const hostHome = join(work, 'proofpr-home');

  beforeAll(async () => {
    // Secrets in the App's own environment: none may reach the verification's test runs.
    process.env.GITHUB_TOKEN = 'ghp_appenvironmenttokennotforthetests00000';
    process.env.ANTHROPIC_API_KEY = 'sk-ant-api03-appenvironmentkeynotforthetests';
    mkdirSync(hostHome);
    writeFileSync(join(hostHome, 'marker.txt'), 'the host home\n');
    const seed = join(work, 'seed');
    mkdirSync(seed);
    g(seed, ['init', '-q', '-b', 'main']);
    write(seed, {
      '.github/proofpr.yml': 'test:\n  command: node --test\nverify:\n  pull_requests: true\n',
      'package.json': '{ "name": "calc", "private": true, "type": "module" }\n',
      'src/math.js': math('a - b'),
      'test/walls.test.js': wallsTest(hostHome),
    });
    g(seed, ['add', '-A']);
    g(seed, ['commit', '-q', '-m', 'initial']);
    baseSha = g(seed, ['rev-parse', 'HEAD']);
    // The fork's commit: the fix with its test (the head of pull request 7).
    write(seed, { 'src/math.js': math('a + b'), 'test/add.test.js': addTest });
    g(seed, ['add', '-A']);
    g(seed, ['commit', '-q', '-m', 'fix add']);
    headSha = g(seed, ['rev-parse', 'HEAD']);
    const bare = join(work, 'git', 'acme', 'widgets.git');
    g(work, ['clone', '-q', '--bare', seed, bare]);
    g(bare, ['update-ref', 'refs/heads/main', baseSha]);
    g(bare, ['update-ref', 'refs/pull/7/head', headSha]);
    gh = await startFakeGitHubServer({
      apiPrefix: '/api/v3',
      git: { root: join(work, 'git'), token: TOKEN },
      bareDir: bare,
      config: 'test:\n  command: node --test\nverify:\n  pull_requests: true\n',
      configAt: { release: 'test:\n  command: node --test\n' },
      pulls: [
        { number: 7, title: 'Fix add', head: 'fix-add', headSha, headRepo: 'stranger/widgets', base: 'main', author: 'stranger' },
        { number: 8, title: 'Onto release', head: 'x', headSha, headRepo: 'stranger/widgets', base: 'release', author: 'stranger' },
      ],
    });
    h = await startHarness(
      async () => {
        throw new Error('verify never starts a fix run');
      },
      { ensureMirror: async () => ({ dir: '' }), pushBranch: async () => ({ pushed: false, sha: '' }) } as never,
      hostHome,
      {
        env: { GHE_HOST: gh.host, GHE_PROTOCOL: 'http' },
        onPullRequest: (r: { outcome: PullRequestOutcome; done?: Promise<void> }) => void outcomes.push(r),
      } as never,
    );
  }, 60_000);

  afterAll(async () => {
    delete process.env.GITHUB_TOKEN;
    delete process.env.ANTHROPIC_API_KEY;
    await h?.close();
    await gh?.close();
  });

  const event = (number: number, base: string, action: string) => ({
    action,
    number,
    pull_request: {
      number,
      title: 'Fix add',
      user: { login: 'stranger', id: 77, type: 'User' },
      head: { ref: 'fix-add', sha: headSha, repo: { full_name: 'stranger/widgets', fork: true } },
      base: { ref: base, sha: baseSha, repo: { full_name: 'acme/widgets' } },
    },
    repository: { name: 'widgets', full_name: 'acme/widgets', default_branch: 'main', owner: { login: 'acme', id: 9 } },
    sender: { login: 'stranger', id: 77, type: 'User' },
    installation: { id: 42 },
  });

  it("app verify - a fork's pull_request.opened by another user gets proofpr/verified (success) on its head sha, with no model and no secret in the run", async () => {
    await h.app.probot.receive({ id: 'pr-1', name: 'pull_request', payload: event(7, 'main', 'opened') } as never);
    expect(outcomes[0]?.outcome).toBe('started');
    await outcomes[0]?.done;
    await until(() => gh.state.checkRuns.length > 0, 5_000);
    const check = gh.state.checkRuns[0]!;
    const summary = check.output?.summary ?? '';
    expect({ name: check.name, head_sha: check.head_sha }).toEqual({ name: 'proofpr/verified', head_sha: headSha });
    expect({ conclusion: check.conclusion, summary }).toMatchObject({ conclusion: 'success' });
    expect(check.output?.title).toMatch(/^verified/);
    expect(summary).toMatch(/Tests: 3 passed, 0 failed/);
    // git went through the stand-in with the installation token; the token is in no artifact.
    expect(gh.gitRequests.length).toBeGreaterThan(0);
    expect(gh.gitRequests.every((r) => r.authorized)).toBe(true);
    expect(summary).not.toContain(TOKEN);
    expect(gh.state.unhandled).toEqual([]);
  }, 240_000);

  it('app verify - with verify.pull_requests off on the base branch (the default), a pull request event starts nothing', async () => {
    const before = gh.state.checkRuns.length;
    await h.app.probot.receive({ id: 'pr-2', name: 'pull_request', payload: event(8, 'release', 'synchronize') } as never);
    expect(outcomes.at(-1)?.outcome).toBe('off');
    expect(gh.state.checkRuns.length).toBe(before);
  }, 60_000);
});
