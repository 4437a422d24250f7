/** acceptRequest: one intake for the App (with run state), the Action and the CLI (without). */
import { afterEach, beforeAll, describe, expect, it, afterAll } from '@jest/globals';
import nock from 'nock';
import { createGitHubPort } from '../../src/github/github-port.js';
import { createTokenOctokit } from '../../src/github/token-octokit.js';
import { loadRepoConfig } from '../../src/github/repo-config.js';
import { repoConfigSchema } from '../../src/config/repo-config.js';
import { acceptRequest, type AcceptDeps } from '../../src/usecases/accept-request.js';
import { replies } from '../../src/usecases/intake/replies.js';
import { fakeGitHub } from '../fakes/github/nock.js';
import { payload } from '../github/payloads.js';

const port = () => createGitHubPort(createTokenOctokit({ token: 't' }), { owner: 'acme', repo: 'widgets' });
const deps = (github = port()): AcceptDeps => ({ github, loadConfig: (ref) => loadRepoConfig(github, ref), newRunId: () => 'run-1' });
const comment = (body: string, pr = false) =>
  ({
    kind: 'event',
    name: 'issue_comment',
    deliveryId: 'd',
    payload: payload('issue_comment.created', (p) => {
      p.comment.body = body;
      if (pr) p.issue.pull_request = { url: 'x' };
    }),
  }) as const;

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('acceptRequest', () => {
  it('intake - a comment that is not a command makes no GitHub request at all (issue or PR)', async () => {
    const attempted: string[] = [];
    const record = (req: { path?: string }) => attempted.push(String(req.path));
    nock.emitter.on('no match', record);
    try {
      for (const body of ['thanks!', 'LGTM, merging', 'I can reproduce this on main', '']) {
        expect((await acceptRequest(comment(body), deps())).outcome).toBe('ignored');
        expect((await acceptRequest(comment(body, true), deps())).outcome).toBe('ignored');
      }
    } finally {
      nock.emitter.removeListener('no match', record);
    }
    expect(attempted).toEqual([]);
  });

  it('intake - a command with a custom prefix still passes the no-API pre-check and is read with the config', async () => {
    const gh = fakeGitHub({ config: 'trigger: "@proofpr please"\n', permissions: { maintainer: 'write' } });
    const res = await acceptRequest(comment('@proofpr please fix it'), deps());
    expect(res.outcome).toBe('accepted');
    expect(gh.calledWith('GET', /contents/)).toHaveLength(1);
  });

  it('intake - an unauthorized user gets the same reply with or without run state (App, Action)', async () => {
    const bodies: string[] = [];
    for (const withLedger of [false, true]) {
      const gh = fakeGitHub({ permissions: { maintainer: 'read' } });
      const d = deps();
      const ledger = {
        recordDelivery: () => true,
        tryCreate: () => ({ ok: true as const, run: { id: 'x', status: 'queued' as const } }),
        active: () => undefined,
        latest: () => undefined,
        setComment: () => undefined,
        update: () => undefined,
        recordBranch: () => undefined,
        ownsBranch: () => true,
      };
      const res = await acceptRequest(comment('/agent fix'), withLedger ? { ...d, ledger } : d);
      expect(res.outcome).toBe('unauthorized');
      bodies.push(...gh.comments.map((c) => c.body));
      nock.cleanAll();
    }
    const defaults = repoConfigSchema.parse({}).authorized;
    expect(bodies).toEqual([replies.unauthorized('maintainer', defaults), replies.unauthorized('maintainer', defaults)]);
  });

  it('intake - the CLI’s token holder is the requester: no authorization, a status comment, an accepted fix', async () => {
    const gh = fakeGitHub();
    const res = await acceptRequest(
      { kind: 'issue', number: 7, title: 't', body: 'b', deliveryId: 'cli-1', requester: { login: 'octocat', id: 1 } },
      deps(),
    );
    expect(res.outcome).toBe('accepted');
    expect(gh.calledWith('GET', /collaborators/)).toHaveLength(0);
    expect(gh.calledWith('POST', /reactions/)).toHaveLength(0);
    expect(gh.comments[0]?.body).toContain('requested by @octocat');
  });

  it('intake - status and cancel without run state are answered, not ignored', async () => {
    const gh = fakeGitHub({ permissions: { maintainer: 'write' } });
    expect((await acceptRequest(comment('/agent status'), deps())).outcome).toBe('status');
    expect((await acceptRequest(comment('/agent cancel'), deps())).outcome).toBe('cancelled');
    expect(gh.comments.map((c) => c.body)).toEqual([replies.stateless('status'), replies.stateless('cancel')]);
  });
});

// Leave no interceptor behind for the next test file in this worker (it may talk to a local server).
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});
