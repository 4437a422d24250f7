/** The GitHub stand-in (state.ts) served through nock on https://api.github.com, for in-process tests. */
import nock from 'nock';
import { API, createGitHubState, type FakeGitHubOptions, type GitHubState } from './state.js';

export { API, OWNER, REPO } from './state.js';
export type FakeGitHub = GitHubState;

export function fakeGitHub(opts: FakeGitHubOptions = {}): FakeGitHub {
  const state = createGitHubState(opts);
  const scope = nock(API).persist();
  for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const) {
    scope.intercept(/.*/, method).reply(function (uri, body) {
      const parsed = typeof body === 'string' && body !== '' ? (JSON.parse(body) as unknown) : body;
      const [status, data, headers] = state.route(method, uri, parsed, this.req.headers);
      return [status, data as nock.Body, headers ?? { 'content-type': 'application/json; charset=utf-8' }];
    });
  }
  return state;
}
