/** The review-threads adapter over both Octokit clients: GraphQL's isResolved, the REST fallback, replies. */
import { afterEach, beforeAll, describe, expect, it, afterAll } from '@jest/globals';
import nock from 'nock';
import { createGitHubPort, type RestOctokit } from '../../src/github/github-port.js';
import { createTokenOctokit } from '../../src/github/token-octokit.js';
import { TestOctokit } from '../hosts/probot/harness.js';
import { API } from '../fakes/github/nock.js';

const TOKEN = 'ghs_portTestToken000000000000000000000';
const clients: Array<[string, () => RestOctokit]> = [
  ['probot', () => new TestOctokit({ auth: { token: TOKEN } })],
  ['@octokit/rest', () => createTokenOctokit({ token: TOKEN })],
];
const portOf = (make: () => RestOctokit) => createGitHubPort(make(), { owner: 'acme', repo: 'widgets' });
const gqlThread = (id: string, resolved: boolean, dbId: number) => ({
  id,
  isResolved: resolved,
  isOutdated: false,
  path: 'src/a.ts',
  line: 4,
  originalLine: 4,
  comments: {
    nodes: [
      {
        databaseId: dbId,
        body: 'fix this',
        createdAt: '2026-11-29T11:00:00Z',
        url: `u${dbId}`,
        author: { login: 'm', __typename: 'User' },
      },
    ],
  },
});

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe.each(clients)('review threads over %s', (_name, make) => {
  it('review threads - GraphQL says which threads are resolved, paging through reviewThreads', async () => {
    const page = (nodes: unknown[], next: string | null) => ({
      data: { repository: { pullRequest: { reviewThreads: { pageInfo: { hasNextPage: next !== null, endCursor: next }, nodes } } } },
    });
    const seen: unknown[] = [];
    nock(API)
      .post('/graphql', (b: { variables: unknown }) => (seen.push(b.variables), true))
      .reply(200, page([gqlThread('A', false, 1)], 'c1'))
      .post('/graphql')
      .reply(200, page([gqlThread('B', true, 2)], null));
    const res = await portOf(make).reviews?.listThreads(13);
    expect(res?.source).toBe('graphql');
    expect(res?.threads.map((t) => [t.id, t.resolved, t.path, t.line, t.comments[0]?.id])).toEqual([
      ['A', false, 'src/a.ts', 4, 1],
      ['B', true, 'src/a.ts', 4, 2],
    ]);
    expect(seen[0]).toEqual({ owner: 'acme', repo: 'widgets', number: 13, after: null });
  });

  it('review threads - a GraphQL refusal falls back to the REST review comments; a GitHub 5xx does not', async () => {
    nock(API).post('/graphql').reply(403, { message: 'Resource not accessible by integration' });
    nock(API)
      .get('/repos/acme/widgets/pulls/13/comments')
      .query(true)
      .reply(200, [{ id: 5, body: 'b', path: 'x.ts', line: 2, created_at: '2026-11-29T11:00:00Z', html_url: 'u', user: { login: 'm' } }]);
    const res = await portOf(make).reviews?.listThreads(13);
    expect(res?.source).toBe('rest');
    expect(res?.threads.map((t) => [t.id, t.resolved])).toEqual([['rest-5', false]]);
    // (retries off: the client without them)
    nock(API).post('/graphql').reply(502, { message: 'Bad Gateway' });
    await expect(
      createGitHubPort(new TestOctokit({ auth: { token: TOKEN } }), { owner: 'acme', repo: 'widgets' }).reviews?.listThreads(13),
    ).rejects.toThrow();
  });

  it('review threads - a reply goes to the thread’s first comment through the REST replies endpoint', async () => {
    const api = nock(API)
      .post('/repos/acme/widgets/pulls/13/comments/301/replies', { body: 'Addressed in abc' })
      .reply(201, { id: 9, html_url: 'https://github.com/acme/widgets/pull/13#discussion_r9' });
    expect(await portOf(make).reviews?.reply(13, 301, 'Addressed in abc')).toEqual({
      id: 9,
      url: 'https://github.com/acme/widgets/pull/13#discussion_r9',
    });
    expect(api.isDone()).toBe(true);
  });
});

// Leave no interceptor behind for the next test file in this worker (it may talk to a local server).
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});
