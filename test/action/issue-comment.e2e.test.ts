import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { replies } from '../../src/usecases/intake/replies.js';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { actionFixture, forkPullNamedLikeOurs, git, TOKEN, type ActionFixture } from './harness.js';

const event = (overrides: { body?: string; user?: string } = {}) => {
  const e = JSON.parse(readFileSync('test/fixtures/events/issue_comment.created.json', 'utf8')) as {
    comment: { body: string; created_at: string; user: { login: string } };
    sender: { login: string };
  };
  e.comment.created_at = new Date().toISOString();
  if (overrides.body) e.comment.body = overrides.body;
  if (overrides.user) e.comment.user.login = e.sender.login = overrides.user;
  return e;
};

describe('action: issue_comment', () => {
  let fx: ActionFixture;
  beforeAll(async () => {
    fx = await actionFixture();
    fx.github.permissions = { alice: 'write', mallory: 'read' };
  });
  afterAll(async () => fx.close());

  // Behaviour change (issue 14, one intake): the Action now tells an unauthorized user why, as the App does.
  it("action - a read-only commenter (payload says COLLABORATOR) gets the App's reply and starts nothing", async () => {
    const r = await fx.run('issue_comment', event({ user: 'mallory' }));
    expect(r.code).toBe(0);
    expect(r.outputs.verdict).toBe('skipped');
    expect(r.stdout).toMatch(/mallory may not trigger runs \(repository permission read/);
    expect(fx.github.log).toContain('GET /repos/acme/demo/collaborators/mallory/permission');
    expect(fx.github.comments.map((c) => c.body)).toEqual([replies.unauthorized('mallory', ['write', 'maintain', 'admin'])]);
    fx.github.comments.length = 0;
    expect(fx.model.requests).toHaveLength(0);
  });

  it('action - a comment that is not a command starts nothing and costs no API call', async () => {
    const before = fx.github.calls.length;
    const r = await fx.run('issue_comment', event({ body: 'thanks, looks good' }));
    expect(r.code).toBe(0);
    expect(fx.github.calls.length).toBe(before);
    expect(r.outputs.verdict).toBe('skipped');
    expect(fx.model.requests).toHaveLength(0);
  });

  it('action - /agent fix on a fork PR named proofpr/… gets one reply and nothing else', async () => {
    fx.github.pulls.push(forkPullNamedLikeOurs(31));
    const before = fx.github.comments.length;
    const e = event();
    (e as unknown as { issue: { number: number; pull_request: unknown } }).issue.number = 31;
    (e as unknown as { issue: { pull_request: unknown } }).issue.pull_request = { url: 'x' };
    const r = await fx.run('issue_comment', e);
    expect(r.code).toBe(0);
    expect(r.outputs.verdict).toBe('skipped');
    expect(r.stdout).toMatch(/comes from a fork \(mallory\/demo\)/);
    const replies = fx.github.comments.slice(before);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.body).toMatch(/does not push to forks or run their code/);
    expect(fx.github.reactions).toHaveLength(0);
    expect(fx.model.requests).toHaveLength(0);
    expect(
      fx.github.log.filter((l) => /^(PATCH|PUT|DELETE)/.test(l) || l.startsWith('POST /repos/acme/demo/pulls') || l.includes('check-runs')),
    ).toEqual([]);
    expect(git(fx.bare, 'branch', '--list', 'proofpr/*').trim()).toBe('');
    fx.github.pulls.pop();
  });

  it('action - /agent fix from a writer runs the agent, pushes the branch and opens a verified PR', async () => {
    const r = await fx.run('issue_comment', event());
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(0);
    expect(r.outputs.verdict).toBe('verified');
    expect(r.outputs.branch).toMatch(/^proofpr\/7-median-is-wrong-for-numbers/);
    const pr = fx.github.pulls[0];
    expect(pr).toBeDefined();
    expect(r.outputs.pr_number).toBe(String(pr?.number));
    expect(r.outputs.pr_url).toMatch(new RegExp(`/acme/demo/pull/${pr?.number}$`));
    expect(pr?.head).toBe(r.outputs.branch);
    expect(pr?.base).toBe('main');
    expect(pr?.body).toMatch(/^Fixes #7/);
    expect(pr?.body).toContain('proofpr: verified');
    // The bounded CI wait in the step: the repository's CI on the pushed sha is in the PR body.
    expect(pr?.body).toContain('**CI passed ✅ on `');
    // The pushed branch carries exactly the fix.
    const pushed = git(fx.bare, 'show', `${r.outputs.branch}:src/stats.js`);
    expect(pushed).toContain('.sort((a, b) => a - b)');
    // Evidence: absolute (RUNNER_TEMP is outside the workspace), and written.
    expect(isAbsolute(r.outputs.evidence_path ?? '')).toBe(true);
    const evidence = JSON.parse(readFileSync(r.outputs.evidence_path ?? '', 'utf8')) as { verdict: string; task: { issue: number } };
    expect(evidence).toMatchObject({ verdict: 'verified', task: { issue: 7 }, pr: { number: pr?.number, url: r.outputs.pr_url } });
    expect(existsSync(join(r.outputs.evidence_path ?? '', '..', 'report.html'))).toBe(true);
    expect(r.summary).toContain('proofpr: verified');
    // The status comment ends in a final state with the PR link; the trigger got an eyes reaction.
    expect(fx.github.comments.some((c) => c.body.includes(r.outputs.pr_url ?? '-'))).toBe(true);
    expect(fx.github.reactions).toContainEqual({ target: '/issues/comments/4242/reactions', content: 'eyes' });
    // The step's token was used for the API and the push; the model key never reached GitHub.
    expect(fx.github.auth.every((a) => a === `token ${TOKEN}`)).toBe(true);
    expect(fx.gitServer.seen.length).toBeGreaterThan(0);
    expect(JSON.stringify(fx.github.comments) + JSON.stringify(fx.github.pulls)).not.toContain(TOKEN);
  });
});
