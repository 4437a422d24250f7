/**
 * `proofpr run --github-repo OWNER/NAME --issue N`, in process: the REST API is the fake GitHub server
 * (test/action) with nock answering the issue and the token's user; git goes to a real bare repository
 * behind `git http-backend`; the model is scripted (the demo fix).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import nock from 'nock';
import { createScriptedModel } from '../../src/model/scripted.js';
import { main } from '../../src/hosts/cli/main.js';
import { runCommand } from '../../src/hosts/cli/run-command.js';
import type { RawRunFlags } from '../../src/hosts/cli/run-options.js';
import { UsageError } from '../../src/hosts/cli/usage-error.js';
import { startFakeGitHubServer, type FakeGitHubServer } from '../fakes/github/server.js';
import type { GitHubState } from '../fakes/github/state.js';
import { git } from '../action/harness.js';
import { startGitHttpServer, type GitHttpServer } from '../workspace/http-git-server.js';
import { tempDir } from '../kit/temp.js';
import { demoFix } from '../kit/e2e-script.js';

const TOKEN = 'ghp_fakeCliToken0123456789abcdefXYZ';

/** The scripted model that fixes the demo bug and says so. */
const fixModel = () => createScriptedModel(demoFix('node --test', 'median() now sorts numerically; the tests pass.'));

describe('proofpr run --github-repo --issue', () => {
  let work: string;
  let bare: string;
  let gitServer: GitHttpServer;
  let server: FakeGitHubServer;
  let github: GitHubState;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    work = tempDir('proofpr-ghrun-');
    const root = join(work, 'remote');
    bare = join(root, 'acme', 'demo.git');
    mkdirSync(bare, { recursive: true });
    git(bare, 'init', '-q', '--bare', '-b', 'main');
    git(bare, 'config', 'http.receivepack', 'true');
    const seed = join(work, 'seed');
    cpSync(resolve('examples/demo/repo'), seed, { recursive: true });
    git(seed, 'init', '-q', '-b', 'main');
    git(seed, 'add', '-A');
    git(seed, 'commit', '-q', '-m', 'initial');
    git(seed, 'push', '-q', bare, 'main');
    gitServer = await startGitHttpServer(root, `basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`);
    const serverUrl = gitServer.url('').replace(/\/$/, '');
    server = await startFakeGitHubServer({
      owner: 'acme',
      repo: 'demo',
      bareDir: bare,
      webUrl: () => serverUrl,
      self: 'octocat',
      config: readFileSync(resolve('examples/demo/repo/.github/proofpr.yml'), 'utf8'),
    });
    github = server.state;
    env = {
      PATH: process.env.PATH,
      HOME: join(work, 'home'),
      PROOFPR_HOME: join(work, 'proofpr-home'),
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: server.url,
      GITHUB_SERVER_URL: serverUrl,
    };
    nock.disableNetConnect();
    nock.enableNetConnect('127.0.0.1');
  });

  afterEach(() => nock.cleanAll());

  afterAll(async () => {
    nock.enableNetConnect();
    await server.close();
    await gitServer.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('run - reads the issue, pushes the branch and opens a PR that fixes it, exit 0', async () => {
    const api = nock(server.url, { allowUnmocked: true })
      .get('/repos/acme/demo/issues/7')
      .reply(200, { number: 7, title: 'median() is wrong for numbers above 9', body: 'median([1, 10, 2]) should be 2.', state: 'open' })
      .get('/user')
      .reply(200, { login: 'octocat', id: 583231 });
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCommand(
      { githubRepo: 'acme/demo', issue: '7', json: true },
      { env, model: fixModel(), stdout: (s) => out.push(s), stderr: (s) => err.push(s) },
    );
    expect(err.join('')).toContain('verified');
    expect(code).toBe(0);
    expect(api.isDone()).toBe(true);

    const branch = 'proofpr/7-median-is-wrong-for-numbers-above-9';
    const tip = git(bare, 'rev-parse', `refs/heads/${branch}`);
    expect(git(bare, 'show', `${tip}:src/stats.js`)).toContain('.sort((a, b) => a - b)');
    expect(git(bare, 'log', '-1', '--format=%B', tip)).toContain('Co-authored-by: octocat <583231+octocat@users.noreply.github.com>');
    expect(github.pulls).toHaveLength(1);
    expect(github.pulls[0]).toMatchObject({ head: branch, base: 'main', state: 'open' });
    expect(github.pulls[0]?.body).toMatch(/^Fixes #7\b/);
    expect(github.comments.some((c) => c.issue === 7 && c.body.includes('requested by @octocat'))).toBe(true);
    const evidence = JSON.parse(out.join('').trim().split('\n').pop() ?? '{}') as {
      verdict: string;
      repo: { headSha: string };
      pr?: { number: number; url: string };
      runId: string;
    };
    expect(evidence.verdict).toBe('verified');
    // evidence.pr: on stdout and in the run folder's evidence.json.
    const prNumber = github.pulls[0]?.number as number;
    expect(evidence.pr).toEqual({ number: prNumber, url: expect.stringMatching(new RegExp(`/acme/demo/pull/${prNumber}$`)) });
    const onDisk = JSON.parse(readFileSync(join(env.PROOFPR_HOME as string, 'runs', evidence.runId, 'evidence.json'), 'utf8')) as {
      pr?: unknown;
    };
    expect(onDisk.pr).toEqual(evidence.pr);
    expect(evidence.repo.headSha).toBe(tip);
    expect(out.join('')).not.toContain(TOKEN);
    expect(err.join('')).not.toContain(TOKEN);
  }, 180_000);

  it('run - refuses a pull request number as --issue (exit 2 naming --issue)', async () => {
    nock(server.url, { allowUnmocked: true })
      .get('/repos/acme/demo/issues/8')
      .reply(200, { number: 8, title: 'a PR', body: '', state: 'open', pull_request: { url: 'x' } });
    await expect(
      runCommand({ githubRepo: 'acme/demo', issue: '8' }, { env, model: fixModel(), stdout: () => undefined, stderr: () => undefined }),
    ).rejects.toThrow(/--issue 8: #8 is a pull request/);
  });

  it('main - `run --issue` without --github-repo exits 2 naming the flag', async () => {
    const writes: string[] = [];
    const orig = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((s: string) => (writes.push(String(s)), true)) as typeof process.stderr.write;
    try {
      expect(await main(['node', 'proofpr', 'run', '--issue', '7'])).toBe(2);
    } finally {
      process.stderr.write = orig;
    }
    expect(writes.join('')).toContain('--issue 7: needs --github-repo');
  });

  const usage: Array<[string, RawRunFlags, NodeJS.ProcessEnv | undefined, RegExp]> = [
    ['--issue without --github-repo', { issue: '7' }, undefined, /--issue 7: needs --github-repo/],
    ['--github-repo without --issue', { githubRepo: 'acme/demo' }, undefined, /--github-repo acme\/demo: needs --issue/],
    [
      '--issue together with --prompt',
      { githubRepo: 'acme/demo', issue: '7', prompt: 'fix it' },
      undefined,
      /exactly one of --prompt TEXT, --issue-file FILE or --issue N/,
    ],
    ['a malformed --github-repo', { githubRepo: 'acme', issue: '7' }, undefined, /--github-repo acme: expected OWNER\/NAME/],
    ['a non-numeric --issue', { githubRepo: 'acme/demo', issue: 'seven' }, undefined, /--issue "seven": expected a positive whole number/],
    ['no GITHUB_TOKEN', { githubRepo: 'acme/demo', issue: '7' }, { PATH: process.env.PATH }, /GITHUB_TOKEN is not set/],
  ];
  it.each(usage)('run - usage error (exit 2) for %s', async (_name, flags, envOverride, message) => {
    const p = runCommand(flags, { env: envOverride ?? env, model: fixModel(), stdout: () => undefined, stderr: () => undefined });
    await expect(p).rejects.toBeInstanceOf(UsageError);
    await expect(
      runCommand(flags, { env: envOverride ?? env, model: fixModel(), stdout: () => undefined, stderr: () => undefined }),
    ).rejects.toThrow(message);
  });
});

// Leave no interceptor behind for the next test file in this worker (it may talk to a local server).
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});
