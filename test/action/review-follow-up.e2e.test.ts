/**
 * End to end on local fakes (the bundled Action, real git behind git http-backend, the fake REST API and
 * Messages server): `/agent fix` in a submitted review on proofpr's own PR takes the two unresolved
 * threads as the task, pushes one commit to the same branch and replies in both threads naming it; the
 * same on a fork's PR whose branch is merely named `proofpr/7-…` gets one reply and nothing else.
 */
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { actionFixture, forkPullNamedLikeOurs, git, text, tool, type ActionFixture } from './harness.js';

const BRANCH = 'proofpr/7-median';
const STEPS = [
  [text('Reading the code the threads are on.'), tool('Read', { file_path: 'src/stats.js' })],
  [
    tool('Edit', {
      file_path: 'src/stats.js',
      old_string: 'export function median(values) {',
      new_string: 'const byNumber = (a, b) => a - b;\n\nexport function median(values) {',
    }),
  ],
  [tool('Edit', { file_path: 'src/stats.js', old_string: '[...values].sort((a, b) => a - b)', new_string: '[...values].sort(byNumber)' })],
  [tool('Read', { file_path: 'README.md' })],
  [tool('Edit', { file_path: 'README.md', old_string: 'works on).', new_string: 'works on). `median()` sorts numerically.' })],
  [tool('Bash', { command: 'node --test', description: 'run the tests' })],
  [text('Both threads are done.\n\nthread T1: addressed\nthread T2: addressed')],
];

function reviewEvent(pr: { number: number; head: string; headRepo: string }, body = '/agent fix') {
  const now = new Date().toISOString();
  const user = { login: 'alice', id: 11, type: 'User' };
  return {
    action: 'submitted',
    review: { id: 8801, body, state: 'changes_requested', submitted_at: now, user },
    pull_request: {
      number: pr.number,
      title: 'Fix median',
      body: 'Fixes #7',
      head: { ref: pr.head, sha: '0'.repeat(40), repo: { full_name: pr.headRepo } },
      base: { ref: 'main' },
    },
    repository: { name: 'demo', owner: { login: 'acme' }, default_branch: 'main' },
    sender: user,
  };
}

describe('action: review follow-ups (e2e on local fakes)', () => {
  let fx: ActionFixture;
  let tip = '';
  beforeAll(async () => {
    fx = await actionFixture();
    fx.github.permissions = { alice: 'write', mallory: 'read' };
    // proofpr's earlier PR: the numeric sort on its own branch of this repository.
    const tmp = join(fx.work, 'pr-branch');
    git(fx.work, 'clone', '-q', fx.bare, tmp);
    git(tmp, 'checkout', '-q', '-b', BRANCH);
    const file = join(tmp, 'src', 'stats.js');
    writeFileSync(file, git(tmp, 'show', 'HEAD:src/stats.js').replace('[...values].sort()', '[...values].sort((a, b) => a - b)') + '\n');
    git(tmp, 'commit', '-q', '-am', 'Sort numerically in median()');
    git(tmp, 'push', '-q', 'origin', BRANCH);
    tip = git(fx.bare, 'rev-parse', BRANCH);
    fx.github.pulls.push({
      number: 40,
      title: 'Fix median',
      body: 'Fixes #7',
      head: BRANCH,
      base: 'main',
      state: 'open',
      draft: false,
      labels: [],
    });
    fx.github.review.threads.push(
      { pr: 40, path: 'src/stats.js', line: 10, comments: [{ id: 501, user: 'alice', body: 'Name the comparator: a `byNumber` helper.' }] },
      {
        pr: 40,
        path: 'README.md',
        line: 3,
        comments: [{ id: 511, user: 'alice', body: 'Say in the README that median sorts numerically.' }],
      },
      { pr: 40, path: 'src/stats.js', line: 4, resolved: true, comments: [{ id: 521, user: 'alice', body: 'Resolved long ago.' }] },
    );
  });
  afterAll(async () => fx.close());

  it('e2e - a review with two unresolved threads: one commit pushed to the same branch, two thread replies naming it', async () => {
    fx.setSteps(STEPS);
    const r = await fx.run('pull_request_review', reviewEvent({ number: 40, head: BRANCH, headRepo: 'acme/demo' }));
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(0);
    expect(r.outputs.verdict).toBe('verified');

    // The task the model got: both unresolved threads with file and line, as data; not the resolved one.
    const firstUser = JSON.stringify(fx.model.requests[0]);
    expect(firstUser).toContain('T1: `src/stats.js` line 10');
    expect(firstUser).toContain('T2: `README.md` line 3');
    expect(firstUser).toContain('Name the comparator');
    expect(firstUser).not.toContain('Resolved long ago');

    // One commit on top of the PR's previous tip, on the same branch; no other branch appeared.
    const head = git(fx.bare, 'rev-parse', BRANCH);
    expect(git(fx.bare, 'rev-list', `${tip}..${head}`).split('\n')).toEqual([head]);
    expect(git(fx.bare, 'rev-parse', `${head}^`)).toBe(tip);
    expect(git(fx.bare, 'show', `${head}:src/stats.js`)).toContain('.sort(byNumber)');
    expect(git(fx.bare, 'branch', '--list', 'proofpr/*').trim()).toBe(BRANCH);

    // Two replies, one in each thread, each naming that commit.
    expect(fx.github.review.replies.map((x) => x.inReplyTo)).toEqual([501, 511]);
    for (const reply of fx.github.review.replies) expect(reply.body).toContain(`Addressed in ${head}`);
    expect(fx.github.comments.filter((c) => c.body.includes('did not address'))).toHaveLength(0);
    expect(fx.github.unhandled).toEqual([]);
  });

  it('e2e - /agent fix in a review on a fork PR named proofpr/7-…: exactly one reply, no run, no push, no PR edit', async () => {
    fx.github.pulls.push(forkPullNamedLikeOurs(41));
    fx.github.review.threads.push({ pr: 41, path: 'src/stats.js', line: 1, comments: [{ id: 601, user: 'alice', body: 'please fix' }] });
    const requests = fx.model.requests.length;
    const comments = fx.github.comments.length;
    const calls = fx.github.calls.length;
    const refs = git(fx.bare, 'for-each-ref', '--format=%(refname) %(objectname)');
    const r = await fx.run('pull_request_review', reviewEvent({ number: 41, head: 'proofpr/7-looks-like-ours', headRepo: 'mallory/demo' }));
    expect(r.code).toBe(0);
    expect(r.outputs.verdict).toBe('skipped');
    const replies = fx.github.comments.slice(comments);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.body).toMatch(/does not push to forks or run their code/);
    expect(fx.model.requests).toHaveLength(requests);
    expect(git(fx.bare, 'for-each-ref', '--format=%(refname) %(objectname)')).toBe(refs);
    const writes = fx.github.calls.slice(calls).filter((c) => c.method !== 'GET');
    expect(writes.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /repos/acme/demo/issues/41/comments']);
  });
});
