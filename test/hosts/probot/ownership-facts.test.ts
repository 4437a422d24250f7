/** Ownership from GitHub's own facts: with an EMPTY run store, proofpr's PR is the `proofpr/` branch of this repository opened by its bot. */
import { describe, it, expect } from '@jest/globals';
import { fakeRunTask, fakeWorkspace, useAppHarness } from './harness.js';
import { payload } from '../../github/payloads.js';
import type { FakeGitHubOptions } from '../../fakes/github/state.js';

const REPO = 'acme/widgets';
const BRANCH = 'proofpr/12-parser-drops-the-last-line';
const perms = { maintainer: { permission: 'write', role_name: 'write' }, reviewer: 'write' };
const thread = { pr: 13, path: 'src/parser.ts', line: 14, comments: [{ id: 301, user: 'maintainer', body: 'Keep the newline.' }] };
const threadFix = () => payload('pull_request_review_comment.created', (p) => (p.comment.body = '/agent fix'));

describe('probot app - ownership from GitHub facts', () => {
  const app = useAppHarness();

  async function start(author: string) {
    const github: FakeGitHubOptions = {
      permissions: perms,
      pulls: [{ number: 13, head: BRANCH, headSha: '1'.repeat(40), base: 'main', state: 'open', author }],
      refs: { [BRANCH]: '1'.repeat(40) },
      reviewThreads: [thread],
    };
    const fake = fakeRunTask({ planText: 'thread T1: addressed' });
    const ws = fakeWorkspace();
    await app.start({ github, runTask: fake.runTask, workspace: ws });
    return { fake, ws };
  }

  it("ownership - a review-thread /agent fix on the bot's PR with an empty store runs the follow-up on its branch", async () => {
    const { fake, ws } = await start('proofpr[bot]');
    expect(app.runs.ownsBranch(REPO, BRANCH)).toBe(false);
    await app.receive('pull_request_review_comment', threadFix(), 'own-1');
    await app.done(13);
    expect(fake.inputs).toHaveLength(1);
    expect(fake.inputs[0]).toMatchObject({ branch: BRANCH, continueBranch: true, baseRef: 'main' });
    expect(ws.pushes[0]).toMatchObject({ branch: BRANCH });
    expect(app.runs.ownsBranch(REPO, BRANCH)).toBe(true);
  });

  it('ownership - a proofpr/ branch PR opened by another user is refused with a reply naming who opened it; nothing runs', async () => {
    const { fake, ws } = await start('mallory');
    await app.receive('pull_request_review_comment', threadFix(), 'own-2');
    const writes = app.gh.calls.filter((c) => c.method !== 'GET' && !c.path.includes('access_tokens'));
    expect(writes.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /repos/acme/widgets/issues/13/comments']);
    const reply = (writes[0]?.body as { body: string }).body;
    expect(reply).toContain('proofpr follows up only on pull requests it opened');
    expect(reply).toContain('opened by @mallory, not by proofpr[bot]');
    expect(fake.inputs).toHaveLength(0);
    expect(ws.pushes).toHaveLength(0);
  });

  it('ownership - a fork PR is refused with a reply even when its author is the bot name', async () => {
    const { fake } = await start('proofpr[bot]');
    const ev = payload('pull_request_review_comment.created', (p) => {
      p.comment.body = '/agent fix';
      p.pull_request.head = { ref: BRANCH, sha: '1'.repeat(40), repo: { full_name: 'mallory/widgets' } };
    });
    await app.receive('pull_request_review_comment', ev, 'own-3');
    expect(app.gh.comments.map((c) => c.body)).toEqual([expect.stringMatching(/does not push to forks or run their code/)]);
    expect(fake.inputs).toHaveLength(0);
  });
});
