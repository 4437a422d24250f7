/**
 * createGitHubPort: one adapter for the App (Probot's Octokit) and the Action and CLI (@octokit/rest with
 * retry and throttling). Each test runs against both clients; the first five are the places where the two
 * former adapters disagreed, with the behaviour both now share.
 */
import { afterEach, beforeAll, describe, expect, it, afterAll } from '@jest/globals';
import nock from 'nock';
import { createGitHubPort, type RestOctokit } from '../../src/github/github-port.js';
import { createTokenOctokit } from '../../src/github/token-octokit.js';
import { ConfigError, parseRepoConfig } from '../../src/config/repo-config.js';
import { TestOctokit } from '../hosts/probot/harness.js';
import { API, fakeGitHub } from '../fakes/github/nock.js';

const TOKEN = 'ghs_portTestToken000000000000000000000';
const clients: Array<[string, () => RestOctokit]> = [
  ['probot', () => new TestOctokit({ auth: { token: TOKEN } })],
  ['@octokit/rest', () => createTokenOctokit({ token: TOKEN })],
];
const portOf = (make: () => RestOctokit) => createGitHubPort(make(), { owner: 'acme', repo: 'widgets' });
const pull = (n: number, ref: string, extra: Record<string, unknown> = {}) => ({
  number: n,
  html_url: `https://github.com/acme/widgets/pull/${n}`,
  state: 'open',
  head: { ref, sha: 'a'.repeat(40), repo: { full_name: 'acme/widgets' } },
  base: { ref: 'main' },
  ...extra,
});

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe.each(clients)('createGitHubPort over %s', (_name, make) => {
  it('drift: same-repository PR lookup - a fork PR with the same branch name is never proofpr’s', async () => {
    const fork = pull(7, 'proofpr/3-x', { head: { ref: 'proofpr/3-x', sha: 'b'.repeat(40), repo: { full_name: 'mallory/widgets' } } });
    const gone = pull(8, 'proofpr/3-x', { head: { ref: 'proofpr/3-x', sha: 'c'.repeat(40), repo: null } });
    nock(API).get('/repos/acme/widgets/pulls').query(true).reply(200, [fork, gone]);
    expect(await portOf(make).findPullRequestByHead('proofpr/3-x')).toBeUndefined();
    nock(API)
      .get('/repos/acme/widgets/pulls')
      .query(true)
      .reply(200, [fork, pull(9, 'proofpr/3-x')]);
    expect((await portOf(make).findPullRequestByHead('proofpr/3-x'))?.number).toBe(9);
    nock(API)
      .get('/repos/acme/widgets/pulls')
      .query(true)
      .reply(200, [fork, pull(10, 'proofpr/4-y')]);
    expect(await portOf(make).listOpenPullRequests()).toEqual([expect.objectContaining({ number: 10 })]);
  });

  it('drift: a 403 on check runs (no `checks: write`) is skipped, other errors still throw', async () => {
    const run = { headSha: 'a'.repeat(40), name: 'proofpr', conclusion: 'success' as const, title: 't', summary: 's' };
    nock(API).post('/repos/acme/widgets/check-runs').reply(403, { message: 'Resource not accessible by integration' });
    await expect(portOf(make).createCheckRun(run)).resolves.toBeUndefined();
    nock(API).post('/repos/acme/widgets/check-runs').reply(422, { message: 'Invalid' });
    await expect(portOf(make).createCheckRun(run)).rejects.toMatchObject({ status: 422 });
  });

  it('drift: `_extends` is merged as Probot merges it, for a file read through the API', async () => {
    const gh = fakeGitHub({
      config: '_extends: shared-config\nmax_turns: 9\n',
      files: { 'acme/shared-config:.github/proofpr.yml': 'max_turns: 40\nmax_cost_usd: 2\n' },
    });
    const raw = await portOf(make).readConfig();
    expect(raw).toEqual({ max_turns: 9, max_cost_usd: 2 });
    expect(gh.calledWith('GET', /^\/repos\/acme\/shared-config\/contents\//)).toHaveLength(1);
  });

  it('drift: `_extends` in a config read from a checkout (the Action) is merged the same way', async () => {
    fakeGitHub({ files: { 'octo-org/base:ci/proofpr.yml': 'max_turns: 40\ntrigger: /bot\n' } });
    const merged = await portOf(make).extendConfig({ _extends: 'octo-org/base:ci/proofpr.yml', max_turns: 3 });
    expect(merged).toEqual({ max_turns: 3, trigger: '/bot' });
    await expect(portOf(make).extendConfig({ _extends: 'not a repo!' })).rejects.toThrow(/_extends/);
    expect(await portOf(make).extendConfig({ max_turns: 3 })).toEqual({ max_turns: 3 });
  });

  it('drift: adding an empty list of labels makes no request', async () => {
    const gh = fakeGitHub();
    await portOf(make).addLabels(12, []);
    expect(gh.calls).toEqual([]);
    await portOf(make).addLabels(12, ['proofpr']);
    expect(gh.calledWith('POST', /\/issues\/12\/labels$/)[0]?.body).toEqual({ labels: ['proofpr'] });
  });

  it('drift: draft is always a boolean (a PR reported without the field is not a draft)', async () => {
    fakeGitHub({
      pulls: [
        { number: 5, head: 'proofpr/5-a', base: 'main', draft: undefined },
        { number: 6, head: 'proofpr/6-b', base: 'main', draft: true },
      ],
    });
    expect((await portOf(make).getPullRequest(5))?.draft).toBe(false);
    expect((await portOf(make).getPullRequest(6))?.draft).toBe(true);
    expect(await portOf(make).getPullRequest(404)).toBeUndefined();
  });

  it('permission - 404 (not a collaborator) and 403 (token may not ask) are none', async () => {
    fakeGitHub({ permissions: { alice: { permission: 'write', role_name: 'maintain' } } });
    expect(await portOf(make).permission('alice')).toEqual({ permission: 'write', roleName: 'maintain' });
    expect(await portOf(make).permission('bob')).toEqual({ permission: 'none' });
    nock.cleanAll();
    nock(API).get('/repos/acme/widgets/collaborators/carol/permission').reply(403, { message: 'Forbidden' });
    expect(await portOf(make).permission('carol')).toEqual({ permission: 'none' });
  });

  it('gitAccess - the clone URL on the web root and the client’s own token', async () => {
    const port = createGitHubPort(make(), { owner: 'acme', repo: 'widgets', webUrl: 'https://ghe.example.test/' });
    expect(await port.gitAccess()).toEqual({ url: 'https://ghe.example.test/acme/widgets.git', token: TOKEN });
    expect(port.htmlUrl(3)).toBe('https://ghe.example.test/acme/widgets/issues/3');
  });
});

describe('_extends without GitHub', () => {
  it('a local run refuses `_extends`, naming where it works', () => {
    expect(() => parseRepoConfig('_extends: shared\n')).toThrow(ConfigError);
    expect(() => parseRepoConfig('_extends: shared\n')).toThrow(
      /_extends: another repository's config is merged only when proofpr reads this file through GitHub/,
    );
  });
});

// Leave no interceptor behind for the next test file in this worker (it may talk to a local server).
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});
