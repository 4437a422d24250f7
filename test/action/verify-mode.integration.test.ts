/**
 * The Action's `mode: verify` (issue 40, CONTRACT §11), in-process (runActionMain) against the GitHub
 * stand-in (REST + git over HTTP, a local bare repository as the remote): a `pull_request` event for a PR
 * opened by another user yields the check run `proofpr/verified` on its head sha. Two pull requests with
 * the same change: one from a branch of the repository, one from a fork. Both run with the same walls
 * (the same sandbox, the evidence says which) and no secret: the step's environment holds a GitHub token
 * and an Anthropic key, and the test command fails when it sees any token or key variable, or can read
 * proofpr's home. No key input is needed (a fork's workflow has none). A non-pull_request event is bad
 * input naming the `mode` input.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { startFakeGitHubServer, type FakeGitHubServer } from '../fakes/github/server.js';
import { tempDir } from '../kit/temp.js';
import { runActionMain } from '../../src/hosts/action/main.js';
import { parseActionInputs } from '../../src/config/action-inputs.js';
import type { ActionContext } from '../../src/hosts/action/context.js';
import type { Evidence } from '../../src/agent/evidence/types.js';

const TOKEN = 'ghs_fakeActionToken0123456789abcdefXYZ';
const g = (cwd: string, args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

function write(dir: string, files: Record<string, string>): void {
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
  }
}

const wallsTest = (marker: string): string =>
  [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import { existsSync } from 'node:fs';",
    "test('no secret in the environment', () => assert.deepEqual(Object.keys(process.env).filter((k) => /TOKEN|KEY|SECRET|PRIVATE/i.test(k)), []));",
    `test("proofpr's home is hidden", () => assert.equal(existsSync(${JSON.stringify(marker)}), false));`,
    '',
  ].join('\n');
const addTest =
  "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { add } from '../src/math.js';\ntest('add', () => assert.equal(add(2, 2), 4));\n";

describe('action mode: verify on pull_request', () => {
  const work = tempDir('proofpr-action-verify-');
  const home = join(work, 'home');
  const marker = join(home, 'marker.txt');
  let gh: FakeGitHubServer;
  let headSha = '';
  let workspace = '';
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    mkdirSync(home);
    writeFileSync(marker, 'proofpr home\n');
    const seed = join(work, 'seed');
    mkdirSync(seed);
    g(seed, ['init', '-q', '-b', 'main']);
    write(seed, {
      '.github/proofpr.yml': 'test:\n  command: node --test\n',
      'package.json': '{ "name": "calc", "private": true, "type": "module" }\n',
      'src/math.js': 'export const add = (a, b) => a - b;\n',
      'test/walls.test.js': wallsTest(marker),
    });
    g(seed, ['add', '-A']);
    g(seed, ['commit', '-q', '-m', 'initial']);
    const base = g(seed, ['rev-parse', 'HEAD']);
    write(seed, { 'src/math.js': 'export const add = (a, b) => a + b;\n', 'test/add.test.js': addTest });
    g(seed, ['add', '-A']);
    g(seed, ['commit', '-q', '-m', 'fix add']);
    headSha = g(seed, ['rev-parse', 'HEAD']);
    const bare = join(work, 'git', 'acme', 'widgets.git');
    g(work, ['clone', '-q', '--bare', seed, bare]);
    g(bare, ['update-ref', 'refs/heads/main', base]);
    g(bare, ['update-ref', 'refs/pull/7/head', headSha]);
    g(bare, ['update-ref', 'refs/pull/8/head', headSha]);
    // The job's checkout (actions/checkout of the PR): verify does not read it.
    workspace = join(work, 'workspace');
    g(work, ['clone', '-q', seed, workspace]);
    gh = await startFakeGitHubServer({
      git: { root: join(work, 'git'), token: TOKEN },
      bareDir: bare,
      config: 'test:\n  command: node --test\n',
      pulls: [
        { number: 7, title: 'Fix add', head: 'fix-add', headSha, base: 'main', author: 'colleague' },
        { number: 8, title: 'Fix add', head: 'fix-add', headSha, headRepo: 'stranger/widgets', base: 'main', author: 'stranger' },
      ],
    });
    // The step's environment as a workflow gives it: a token and a key (a same-repository PR's secrets).
    for (const k of ['GITHUB_TOKEN', 'INPUT_GITHUB_TOKEN', 'INPUT_ANTHROPIC_API_KEY', 'ANTHROPIC_API_KEY']) saved[k] = process.env[k];
    process.env.GITHUB_TOKEN = TOKEN;
    process.env.INPUT_GITHUB_TOKEN = TOKEN;
    process.env.INPUT_ANTHROPIC_API_KEY = 'sk-ant-api03-stepkeynotforthetests0000';
    process.env.ANTHROPIC_API_KEY = 'sk-ant-api03-stepkeynotforthetests0000';
  }, 60_000);

  afterAll(async () => {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    await gh?.close();
  });

  const ctxFor = (number: number, fork: boolean, eventName = 'pull_request'): ActionContext => ({
    eventName,
    payload: {
      action: 'opened',
      number,
      pull_request: {
        number,
        user: { login: fork ? 'stranger' : 'colleague' },
        head: { ref: 'fix-add', sha: headSha, repo: { full_name: fork ? 'stranger/widgets' : 'acme/widgets', fork } },
        base: { ref: 'main', repo: { full_name: 'acme/widgets' } },
      },
    },
    owner: 'acme',
    repo: 'widgets',
    workspace,
    apiUrl: gh.apiUrl,
    serverUrl: gh.url,
    runKey: `${number}-1`,
    home,
  });

  // A fork's workflow has no secrets: the key input is empty, and verify asks for none.
  const inputs = () => parseActionInputs({ INPUT_MODE: 'verify', INPUT_GITHUB_TOKEN: TOKEN });

  it('action verify - a PR from a colleague and the same PR from a fork: proofpr/verified (success) on the head sha, the same walls, no secret', async () => {
    const lines: string[] = [];
    const run = (n: number, fork: boolean) =>
      runActionMain(ctxFor(n, fork), inputs(), { enableSandbox: async () => ({ sandbox: 'bwrap', did: [] }), log: (l) => lines.push(l) });
    const same = await run(7, false);
    const fork = await run(8, true);
    for (const r of [same, fork]) {
      expect({ code: r.exitCode, verdict: r.outputs.verdict, summary: r.exitCode === 0 ? '' : r.summaryMd }).toEqual({
        code: 0,
        verdict: 'verified',
        summary: '',
      });
    }
    expect(fork.outputs.pr_number).toBe('8');
    const checks = gh.state.checkRuns.map((c) => ({ name: c.name, head_sha: c.head_sha, conclusion: c.conclusion }));
    expect(checks).toEqual([
      { name: 'proofpr/verified', head_sha: headSha, conclusion: 'success' },
      { name: 'proofpr/verified', head_sha: headSha, conclusion: 'success' },
    ]);
    const evidence = (r: typeof same) => JSON.parse(readFileSync(resolve(workspace, r.outputs.evidence_path), 'utf8')) as Evidence;
    const [a, b] = [evidence(same), evidence(fork)];
    expect(b.sandbox).toBe(a.sandbox);
    expect(b.test?.command).toBe('node --test');
    expect(b.testRuns.find((r) => r.kind === 'final')?.counts).toMatchObject({ passed: 3, failed: 0 });
    expect(JSON.stringify(b)).not.toContain('stepkeynotforthetests');
    expect(JSON.stringify(b)).not.toContain(TOKEN);
    expect(lines.join('\n')).toContain('no model');
    expect(gh.state.unhandled).toEqual([]);
  }, 300_000);

  it('action verify - a non-pull_request event is bad input naming `mode`', async () => {
    await expect(
      runActionMain(ctxFor(7, false, 'push'), inputs(), {
        enableSandbox: async () => ({ sandbox: 'bwrap', did: [] }),
        log: () => undefined,
      }),
    ).rejects.toThrow(/input mode: verify runs on pull_request events/);
  });
});
