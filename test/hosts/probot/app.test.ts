import { describe, it, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeGitHub } from '../../fakes/github/nock.js';
import { fakeRunTask, fakeWorkspace, useAppHarness, type AppHarness } from './harness.js';
import { payload } from '../../github/payloads.js';
import type { FakeGitHubOptions } from '../../fakes/github/state.js';

const REPO = 'acme/widgets';
const maintainer = { maintainer: { permission: 'write', role_name: 'write' } };
const comment = (body: string, patch: (p: ReturnType<typeof payload>) => void = () => {}) =>
  payload('issue_comment.created', (p) => {
    p.comment.body = body;
    patch(p);
  });

/** The App on `github` with a fake RunTask that answers verified; that RunTask's record. */
async function startWith(app: AppHarness, github: FakeGitHubOptions) {
  const fake = fakeRunTask();
  await app.start({ github, runTask: fake.runTask, workspace: fakeWorkspace() });
  return fake;
}

/** The body of the first comment the App posted on issue #12. */
const firstReply = (gh: FakeGitHub): string => (gh.calledWith('POST', /\/issues\/12\/comments$/)[0]?.body as { body: string }).body;

describe('probot app - /agent on issues and PRs', () => {
  const app = useAppHarness();

  const done = () => app.done(12);

  it('app - an authorized /agent fix reacts, posts a status comment, opens a PR with the evidence and links it', async () => {
    const github: FakeGitHubOptions = { permissions: maintainer, config: 'pr:\n  labels: [proofpr, bot-fix]\n' };
    const fake = fakeRunTask();
    const ws = fakeWorkspace();
    await app.start({ github, runTask: fake.runTask, workspace: ws });
    await app.receive('issue_comment', comment('/agent fix keep the API <!-- secret -->'), 'd-1');
    await done();

    expect(app.gh.calledWith('POST', /\/issues\/comments\/5001\/reactions$/).map((c) => (c.body as { content: string }).content)).toEqual([
      'eyes',
    ]);
    const statusCalls = app.gh.calledWith('POST', /\/issues\/12\/comments$/);
    expect(statusCalls).toHaveLength(1);
    const statusId = app.gh.comments[0]?.id as number;
    const bodies = app.gh.comments.find((c) => c.id === statusId)?.bodies ?? [];
    expect(bodies[0]).toContain('queued');
    expect(
      bodies.some((b) => b.includes('working') && b.includes('Fix the parser') && b.includes('turns 1/80') && b.includes('$0.02 of $5.00')),
    ).toBe(true);
    const final = app.gh.commentBody(statusId);
    expect(final).toContain('Verdict: verified');
    expect(final).toContain('https://github.com/acme/widgets/pull/100');

    const input = fake.inputs[0];
    expect(input).toMatchObject({
      branch: 'proofpr/12-parser-drops-the-last-line',
      baseRef: 'main',
      mode: 'fix',
      coAuthor: 'maintainer <1001+maintainer@users.noreply.github.com>',
      repoFullName: REPO,
    });
    expect(input?.task.instructions).toBe('keep the API');
    expect(input?.task.body).toContain('> When the input has no trailing newline the last line is lost.');
    expect(input?.task.body).not.toContain('ignore all previous instructions');

    expect(ws.pushes).toEqual([
      expect.objectContaining({
        branch: 'proofpr/12-parser-drops-the-last-line',
        remoteUrl: 'https://github.com/acme/widgets.git',
        ownBranch: true,
        expectedRemoteSha: null,
        token: 'ghs_fakeinstallationtoken000000000000000',
      }),
    ]);
    const pr = app.gh.calledWith('POST', /\/pulls$/)[0]?.body as {
      title: string;
      body: string;
      head: string;
      base: string;
      draft: boolean;
    };
    expect(pr).toMatchObject({
      title: 'Parser drops the last line',
      head: 'proofpr/12-parser-drops-the-last-line',
      base: 'main',
      draft: false,
    });
    expect(pr.body).toMatch(/^Fixes #12\n\n## proofpr: verified/);
    expect(app.gh.calledWith('POST', /\/issues\/100\/labels$/)[0]?.body).toEqual({ labels: ['proofpr', 'bot-fix'] });
    expect(app.gh.calledWith('POST', /\/check-runs$/)[0]?.body).toMatchObject({
      head_sha: 'c'.repeat(40),
      conclusion: 'success',
      name: 'proofpr',
    });
    expect(app.runs.latest(REPO, 12)).toMatchObject({
      verdict: 'verified',
      prUrl: 'https://github.com/acme/widgets/pull/100',
    });
    // evidence.pr is written into the run folder's evidence.json once the PR is opened.
    const written = JSON.parse(readFileSync(join(input?.runDir ?? '', 'evidence.json'), 'utf8')) as { pr?: unknown };
    expect(written.pr).toEqual({ number: 100, url: 'https://github.com/acme/widgets/pull/100' });
    expect(app.gh.unhandled).toEqual([]);
  });

  it('app - a re-run for the same issue force-pushes with lease and updates the PR it opened', async () => {
    const github: FakeGitHubOptions = {
      permissions: maintainer,
      refs: { 'proofpr/12-parser-drops-the-last-line': 'b'.repeat(40) },
      pulls: [{ number: 100, head: 'proofpr/12-parser-drops-the-last-line', headSha: 'b'.repeat(40), base: 'main', state: 'open' }],
    };
    const ws = fakeWorkspace();
    await app.start({ github, runTask: fakeRunTask().runTask, workspace: ws });
    await app.receive('issue_comment', comment('/agent fix'), 'd-2');
    await done();
    expect(ws.pushes[0]?.expectedRemoteSha).toBe('b'.repeat(40));
    expect(app.gh.calledWith('POST', /\/pulls$/)).toHaveLength(0);
    expect(app.gh.calledWith('PATCH', /\/pulls\/100$/)).toHaveLength(1);
    expect(app.gh.unhandled).toEqual([]);
  });

  it('app - an unauthorized user gets one polite reply and nothing runs', async () => {
    const github: FakeGitHubOptions = { permissions: { maintainer: { permission: 'read', role_name: 'read' } } };
    const fake = await startWith(app, github);
    await app.receive(
      'issue_comment',
      comment('/agent fix', (p) => (p.comment.author_association = 'COLLABORATOR')),
      'd-3',
    );
    const replies = app.gh.calledWith('POST', /\/issues\/12\/comments$/);
    expect(replies).toHaveLength(1);
    expect((replies[0]?.body as { body: string }).body).toMatch(/^Sorry @maintainer, only people with write, maintain, admin access/);
    expect(app.gh.calledWith('POST', /reactions$/)).toHaveLength(0);
    expect(app.runs.latest(REPO, 12)).toBeUndefined();
    expect(fake.inputs).toHaveLength(0);
  });

  it('app - a comment that is not a command costs zero GitHub API calls', async () => {
    const github: FakeGitHubOptions = { permissions: maintainer };
    await app.start({ github, runTask: fakeRunTask().runTask, workspace: fakeWorkspace() });
    await app.receive('issue_comment', comment('thanks, that fixed it for me'), 'd-chat');
    await app.receive(
      'issue_comment',
      comment('LGTM', (p) => (p.issue.pull_request = { url: 'x' })),
      'd-pr-chat',
    );
    expect(app.gh.calls).toEqual([]);
    expect(app.runs.latest(REPO, 12)).toBeUndefined();
  });

  it('app - a bot comment starts nothing and calls no API', async () => {
    const github: FakeGitHubOptions = { permissions: maintainer };
    await app.start({ github, runTask: fakeRunTask().runTask, workspace: fakeWorkspace() });
    const bot = comment('/agent fix', (p) => {
      p.sender = { login: 'proofpr[bot]', id: 5, type: 'Bot' };
      p.comment.user = p.sender;
    });
    await app.receive('issue_comment', bot, 'd-4');
    await app.receive(
      'issue_comment',
      comment('/agent fix', (p) => (p.action = 'edited')),
      'd-5',
    );
    expect(app.gh.calls).toEqual([]);
  });

  it('app - a redelivered webhook starts nothing', async () => {
    const github: FakeGitHubOptions = { permissions: maintainer };
    const fake = await startWith(app, github);
    await app.receive('issue_comment', comment('/agent fix'), 'same');
    await done();
    const before = app.gh.calls.length;
    await app.receive('issue_comment', comment('/agent fix'), 'same');
    expect(fake.inputs).toHaveLength(1);
    expect(app.gh.calls.slice(before).filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('app - a delivery that failed before anything was queued can be redelivered', async () => {
    const github: FakeGitHubOptions = { permissions: maintainer, failOnce: /^POST \/repos\/acme\/widgets\/issues\/12\/comments$/ };
    const fake = await startWith(app, github);
    await expect(app.receive('issue_comment', comment('/agent fix'), 'retry-1')).rejects.toThrow();
    expect(app.runs.active(REPO, 12)).toBeUndefined();
    await app.receive('issue_comment', comment('/agent fix'), 'retry-1');
    await done();
    expect(fake.inputs).toHaveLength(1);
  });

  it('app - a second /agent fix while one runs gets "already running" with a link to the status comment', async () => {
    const github: FakeGitHubOptions = { permissions: maintainer };
    let release: () => void = () => {};
    const fake = fakeRunTask({ hold: new Promise<void>((r) => (release = r)) });
    await app.start({ github, runTask: fake.runTask, workspace: fakeWorkspace() });
    await app.receive('issue_comment', comment('/agent fix'), 'd-6');
    await fake.started;
    await app.receive(
      'issue_comment',
      comment('/agent fix again', (p) => (p.comment.id = 5002)),
      'd-7',
    );
    const statusId = app.gh.comments[0]?.id as number;
    const reply = app.gh.commentBody(app.gh.comments[1]?.id as number);
    expect(reply).toMatch(/A run for #12 is already running/);
    expect(reply).toContain(`#issuecomment-${statusId}`);
    release();
    await done();
    expect(fake.inputs).toHaveLength(1);
  });

  it('app - an invalid config gets a comment naming each bad key path and nothing runs', async () => {
    const github: FakeGitHubOptions = { permissions: maintainer, config: 'max_turns: lots\ntest:\n  comand: npm test\n' };
    const fake = await startWith(app, github);
    await app.receive('issue_comment', comment('/agent fix'), 'd-8');
    const body = firstReply(app.gh);
    expect(body).toContain('`.github/proofpr.yml` on the default branch is invalid');
    expect(body).toContain('- `max_turns`:');
    expect(body).toContain('- `test.comand`: unknown key');
    expect(fake.inputs).toHaveLength(0);
    expect(app.runs.latest(REPO, 12)).toBeUndefined();
  });

  it('app - an invalid config is reported only to users who may trigger a run (a read-only commenter gets nothing)', async () => {
    const github: FakeGitHubOptions = {
      permissions: { maintainer: { permission: 'read', role_name: 'read' } },
      config: 'permissions:\n  allow: ["Bash(npm test:*"]\n',
    };
    const fake = await startWith(app, github);
    await app.receive('issue_comment', comment('/agent fix'), 'd-8r');
    expect(app.gh.calledWith('POST', /\/issues\/12\/comments$/)).toHaveLength(0);
    expect(fake.inputs).toHaveLength(0);
  });

  it('app - a malformed permission rule is an invalid config at intake, naming the rule, before any run', async () => {
    const github: FakeGitHubOptions = { permissions: maintainer, config: 'permissions:\n  allow: ["Bash(npm test:*"]\n' };
    const fake = await startWith(app, github);
    await app.receive('issue_comment', comment('/agent fix'), 'd-8m');
    const body = firstReply(app.gh);
    expect(body).toContain('- `permissions.allow[0]`:');
    expect(body).toContain('missing closing parenthesis');
    expect(fake.inputs).toHaveLength(0);
  });

  it('app - an unverified run pushes no branch: its WIP ref, named in the comments with the fetch command, and no PR', async () => {
    const github: FakeGitHubOptions = { permissions: maintainer };
    const ws = fakeWorkspace();
    await app.start({ github, runTask: fakeRunTask({ verdict: 'unverified', wip: true }).runTask, workspace: ws });
    await app.receive('issue_comment', comment('/agent fix'), 'd-9');
    await done();
    expect(ws.pushes).toHaveLength(1);
    const wipRef = ws.pushes[0]?.wipRef ?? '';
    expect(wipRef).toMatch(/^refs\/proofpr\/wip\/\d{8}-\d{6}-[0-9a-f]{8}$/);
    expect(app.gh.calledWith('POST', /\/pulls$/)).toHaveLength(0);
    expect(app.gh.calledWith('POST', /\/check-runs$/)).toHaveLength(0);
    const posted = app.gh.comments.map((c) => c.body);
    const report = posted.find((b) => b.startsWith('proofpr could not verify'));
    expect(report).toContain('`tests-ran`: 0 tests executed, need 1');
    const id = wipRef.slice('refs/proofpr/wip/'.length);
    expect(report).toContain(`git fetch origin ${wipRef}:proofpr-wip-${id}`);
    expect(report).not.toContain('/tree/proofpr/');
    const status = posted.find((b) => b.includes('proofpr:run='));
    expect(status).toContain('Verdict: unverified');
    expect(status).toContain('Failed gates:');
    expect(status).toContain(`git fetch origin ${wipRef}:proofpr-wip-${id}`);
    expect(app.runs.latest(REPO, 12)?.verdict).toBe('unverified');
  });

  it('app - with on_unverified: draft_pr an unverified run still opens no PR and pushes no branch (a branch would start CI)', async () => {
    const github: FakeGitHubOptions = { permissions: maintainer, config: 'pr:\n  on_unverified: draft_pr\n' };
    const ws = fakeWorkspace();
    await app.start({ github, runTask: fakeRunTask({ verdict: 'unverified', wip: true }).runTask, workspace: ws });
    await app.receive('issue_comment', comment('/agent fix'), 'd-10');
    await done();
    expect(app.gh.calledWith('POST', /\/pulls$/)).toHaveLength(0);
    expect(ws.pushes.map((p) => p.wipRef)).toEqual([expect.stringMatching(/^refs\/proofpr\/wip\//)]);
  });

  it('app - /agent cancel stops a running job', async () => {
    const github: FakeGitHubOptions = { permissions: maintainer };
    const fake = fakeRunTask({ hold: new Promise<void>(() => {}) });
    await app.start({ github, runTask: fake.runTask, workspace: fakeWorkspace() });
    await app.receive('issue_comment', comment('/agent fix'), 'd-11');
    await fake.started;
    await app.receive(
      'issue_comment',
      comment('/agent cancel', (p) => (p.comment.id = 5003)),
      'd-12',
    );
    await done();
    expect(fake.inputs[0]?.signal?.aborted).toBe(true);
    expect(app.gh.calledWith('POST', /\/issues\/comments\/5003\/reactions$/)[0]?.body).toEqual({ content: '+1' });
    const statusId = app.gh.comments[0]?.id as number;
    expect(app.gh.commentBody(statusId)).toContain('cancelled');
    expect(app.runs.latest(REPO, 12)?.verdict).toBe('aborted');
  });

  it('app - /agent plan runs read-only, posts the plan, and commits or pushes nothing', async () => {
    const github: FakeGitHubOptions = { permissions: maintainer };
    const fake = fakeRunTask({ planText: '1. Read parser.ts\n2. Handle EOF without newline' });
    const ws = fakeWorkspace();
    await app.start({ github, runTask: fake.runTask, workspace: ws });
    await app.receive('issue_comment', comment('/agent plan'), 'd-13');
    await done();
    expect(fake.inputs[0]?.mode).toBe('plan');
    expect(ws.pushes).toEqual([]);
    expect(app.gh.calledWith('POST', /\/pulls$/)).toHaveLength(0);
    const plan = app.gh.comments.map((c) => c.body).find((b) => b.startsWith('### Plan for #12'));
    expect(plan).toContain('2. Handle EOF without newline');
    expect(plan).toContain('nothing was committed or pushed');
  });

  it('app - /agent fix on a proofpr PR continues its branch with the config from the base branch', async () => {
    const github: FakeGitHubOptions = {
      permissions: maintainer,
      config: 'max_turns: 80\n',
      configAt: { main: 'max_turns: 7\n' },
      refs: { 'proofpr/12-parser-drops-the-last-line': '1'.repeat(40) },
      pulls: [{ number: 13, head: 'proofpr/12-parser-drops-the-last-line', headSha: '1'.repeat(40), base: 'main', state: 'open' }],
    };
    const fake = fakeRunTask();
    const ws = fakeWorkspace();
    await app.start({ github, runTask: fake.runTask, workspace: ws });
    // proofpr's own PR: its state records that it created the branch (the name alone is not enough).
    await app.h.app.runs.recordBranch(REPO, 'proofpr/12-parser-drops-the-last-line', 'r-earlier');
    await app.receive('pull_request_review_comment', payload('pull_request_review_comment.created'), 'd-14');
    await app.done(13);
    expect(app.gh.calledWith('GET', /contents\/\.github\/proofpr\.yml\?ref=main$/)).toHaveLength(1);
    expect(fake.inputs[0]).toMatchObject({
      branch: 'proofpr/12-parser-drops-the-last-line',
      continueBranch: true,
      baseRef: 'main',
      instructionsRef: 'main',
    });
    expect(fake.inputs[0]?.config.max_turns).toBe(7);
    expect(fake.inputs[0]?.task.instructions).toBe('also handle CRLF');
    expect(ws.pushes[0]).toMatchObject({ branch: 'proofpr/12-parser-drops-the-last-line', expectedRemoteSha: '1'.repeat(40) });
    expect(app.gh.calledWith('PATCH', /\/pulls\/13$/)).toHaveLength(1);
    expect(app.gh.calledWith('POST', /\/pulls\/comments\/7001\/reactions$/)).toHaveLength(1);
    expect(app.gh.unhandled).toEqual([]);
  });

  it('app - a fix records its branch in the run store: the PR it opened is its own', async () => {
    const github: FakeGitHubOptions = { permissions: maintainer };
    await app.start({ github, runTask: fakeRunTask().runTask, workspace: fakeWorkspace() });
    expect(await app.h.app.runs.ownsBranch(REPO, 'proofpr/12-parser-drops-the-last-line')).toBe(false);
    await app.receive('issue_comment', comment('/agent fix'), 'own-1');
    await done();
    expect(await app.h.app.runs.ownsBranch(REPO, 'proofpr/12-parser-drops-the-last-line')).toBe(true);
  });

  const forkHead = { ref: 'proofpr/7-looks-like-ours', sha: '1'.repeat(40), repo: { full_name: 'mallory/widgets' } };
  const forkPr = {
    number: 13,
    head: forkHead.ref,
    headSha: forkHead.sha,
    headRepo: 'mallory/widgets',
    base: 'main',
    state: 'open' as const,
  };
  const noEdits = (g: FakeGitHub) => g.calls.filter((c) => c.method !== 'GET' && !c.path.includes('access_tokens'));

  it('app - /agent fix on a fork PR named proofpr/… gets one reply and nothing else: no run, no push, no edit', async () => {
    const github: FakeGitHubOptions = { permissions: maintainer, pulls: [forkPr] };
    const fake = fakeRunTask();
    const ws = fakeWorkspace();
    await app.start({ github, runTask: fake.runTask, workspace: ws });
    // Even a ledger entry for that name (proofpr once created it in the base repository) does not make a fork's PR its own.
    await app.h.app.runs.recordBranch(REPO, 'proofpr/7-looks-like-ours', 'r-old');
    await app.receive(
      'issue_comment',
      comment('/agent fix', (p) => {
        p.issue.number = 13;
        p.issue.pull_request = { url: 'x' };
      }),
      'fork-1',
    );
    const review = payload('pull_request_review_comment.created', (p) => {
      p.pull_request.head = forkHead;
      p.comment.id = 7002;
    });
    await app.receive('pull_request_review_comment', review, 'fork-2');
    const edits = noEdits(app.gh);
    expect(edits.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /repos/acme/widgets/issues/13/comments',
      'POST /repos/acme/widgets/issues/13/comments',
    ]);
    expect((edits[0]?.body as { body: string }).body).toMatch(/does not push to forks or run their code/);
    expect(fake.inputs).toHaveLength(0);
    expect(ws.pushes).toHaveLength(0);
    expect(ws.mirrors).toHaveLength(0);
    expect(app.runs.latest(REPO, 13)).toBeUndefined();
    expect(app.gh.unhandled).toEqual([]);
  });

  it('app - a same-repository PR named proofpr/… that proofpr has no record of creating gets one reply and no run', async () => {
    const github: FakeGitHubOptions = { permissions: maintainer, pulls: [{ ...forkPr, headRepo: undefined }] };
    const fake = await startWith(app, github);
    await app.receive(
      'issue_comment',
      comment('/agent fix', (p) => {
        p.issue.number = 13;
        p.issue.pull_request = { url: 'x' };
      }),
      'name-1',
    );
    const edits = noEdits(app.gh);
    expect(edits).toHaveLength(1);
    expect((edits[0]?.body as { body: string }).body).toMatch(/no record of creating branch proofpr\/7-looks-like-ours/);
    expect(fake.inputs).toHaveLength(0);
  });

  it('app - a comment on a PR proofpr did not open is ignored', async () => {
    const github: FakeGitHubOptions = {
      permissions: maintainer,
      pulls: [{ number: 12, head: 'feature/x', headSha: '1'.repeat(40), base: 'main', state: 'open' }],
    };
    const fake = await startWith(app, github);
    await app.receive(
      'issue_comment',
      comment('/agent fix', (p) => (p.issue.pull_request = { url: 'x' })),
      'd-15',
    );
    expect(app.gh.calls.filter((c) => c.method !== 'GET' && !c.path.includes('access_tokens'))).toEqual([]);
    expect(fake.inputs).toHaveLength(0);
  });
});

describe('probot app - label trigger and status', () => {
  const app = useAppHarness();

  it('app - the configured trigger label starts a fix, reacting on the issue', async () => {
    const github: FakeGitHubOptions = { permissions: maintainer, config: 'trigger_label: "proofpr:fix"\n' };
    const fake = await startWith(app, github);
    await app.receive('issues', payload('issues.labeled'), 'l-1');
    await app.done(12);
    expect(app.gh.calledWith('POST', /\/issues\/12\/reactions$/)[0]?.body).toEqual({ content: 'eyes' });
    expect(fake.inputs[0]?.task.instructions).toBeUndefined();
    expect(app.gh.calledWith('POST', /\/pulls$/)).toHaveLength(1);
  });

  it('app - /agent status answers with the latest run and its links', async () => {
    const github: FakeGitHubOptions = { permissions: maintainer };
    await app.start({ github, runTask: fakeRunTask().runTask, workspace: fakeWorkspace() });
    await app.receive('issue_comment', comment('/agent status'), 's-1');
    expect(firstReply(app.gh)).toMatch(/No proofpr run for #12 yet/);
    await app.receive('issue_comment', comment('/agent fix'), 's-2');
    await app.done(12);
    await app.receive('issue_comment', comment('/agent status'), 's-3');
    const last = app.gh.calledWith('POST', /\/issues\/12\/comments$/).at(-1)?.body as { body: string };
    const [first, ...rest] = last.body.split('\n');
    expect(first).toMatch(
      /^Run `[\w-]+` is done \(verified\): https:\/\/github.com\/acme\/widgets\/issues\/12#issuecomment-\d+, PR https:\/\/github.com\/acme\/widgets\/pull\/100\.$/,
    );
    // The App keeps costs: the reply ends with this month's spend (budget.monthly_usd).
    expect(rest.join('\n')).toMatch(/This month: \$[\d.]+ spent over \d+ run\(s\)/);
  });
});
