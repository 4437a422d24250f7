/**
 * Feedback memory end to end in the App (nock GitHub, the embedded SQLite store, the real runTask on a
 * temp git repository, scripted models): a review that corrects the bot leaves one entry and one reply;
 * `/agent memory` lists it; the next run's system prompt shows it after the instructions, marked as data
 * and possibly stale; `/agent forget 1` removes it and the run after that no longer sees it.
 */
import { afterEach, beforeEach, describe, expect, it, afterAll } from '@jest/globals';
import nock from 'nock';
import { rmSync } from 'node:fs';
import { fakeGitHub, type FakeGitHub } from '../fakes/github/nock.js';
import { fakeWorkspace, startHarnessWith, until, type Harness } from './harness.js';
import { payload } from '../github/payloads.js';
import { createScriptedModel, text } from '../../src/model/scripted.js';
import type { ModelClient } from '../../src/model/model-client.js';
import type { RunStore } from '../../src/jobs/run-store.js';
import { fixtureRepo } from '../e2e/helpers.js';
import { runTask } from '../../src/run/run-task.js';

const REPO = 'acme/widgets';
const BRANCH = 'proofpr/12-parser-drops-the-last-line';
const maintainer = { maintainer: { permission: 'write', role_name: 'write' }, reader: { permission: 'read', role_name: 'read' } };
const CONFIG = 'test:\n  command: node --test\npermissions:\n  allow: ["Bash(node --test:*)"]\n';

const REVIEW_BODY =
  "Please don't mock the database in these tests: the mocks hid a broken migration last time. Use the sqlite test helper instead.";
const ENTRY = {
  rule: 'Do not mock the database in tests; use the sqlite test helper',
  why: 'the mocks hid a broken migration',
  where: 'tests',
};

function review(body: string, user = 'maintainer') {
  const p = payload('pull_request_review_comment.created');
  return {
    action: 'submitted',
    review: { id: 8001, body, submitted_at: '2026-11-30T09:15:00Z', user: { login: user, id: 1001, type: 'User' } },
    pull_request: p.pull_request,
    repository: p.repository,
    sender: { login: user, id: 1001, type: 'User' },
    installation: p.installation,
  };
}

const issueComment = (body: string, number = 12) =>
  payload('issue_comment.created', (p) => {
    p.comment.body = body;
    p.comment.id = 5000 + Math.floor(Math.random() * 1000);
    p.issue.number = number;
  });

/** Models handed out in order: extraction requests and runs each take the next one. */
function models(list: ModelClient[]) {
  const handed: ModelClient[] = [];
  return {
    factory: () => {
      const m = list[handed.length];
      if (!m) throw new Error('no model left');
      handed.push(m);
      return m;
    },
    handed,
  };
}

describe('feedback memory - in the App', () => {
  let gh: FakeGitHub;
  let h: Harness | undefined;
  let work: string | undefined;
  beforeEach(() => nock.disableNetConnect());
  afterEach(async () => {
    await h?.close();
    h = undefined;
    if (work) rmSync(work, { recursive: true, force: true });
    nock.cleanAll();
    nock.enableNetConnect();
  });

  it('memory - a correcting review leaves one entry; the next run sees it; /agent forget 1 removes it', async () => {
    gh = fakeGitHub({
      permissions: maintainer,
      config: CONFIG,
      refs: { [BRANCH]: '1'.repeat(40) },
      pulls: [{ number: 13, head: BRANCH, headSha: '1'.repeat(40), base: 'main', state: 'open' }],
    });
    const repo = fixtureRepo();
    work = repo.work;
    const extraction = createScriptedModel([{ content: [text(JSON.stringify({ memory: ENTRY }))] }]);
    const run1 = createScriptedModel([{ content: [text('done')] }]);
    const run2 = createScriptedModel([{ content: [text('done')] }]);
    const m = models([extraction, run1, run2]);
    const ws = fakeWorkspace(repo.dir);
    h = await startHarnessWith({ runTask, workspace: ws, modelFactory: m.factory });
    await h.app.runs.recordBranch(REPO, BRANCH, 'r-earlier');

    // 1. The review: one extraction request, one entry, one reply on the PR.
    await h.app.probot.receive({ id: 'rev-1', name: 'pull_request_review', payload: review(REVIEW_BODY) } as never);
    await until(() => gh.comments.some((c) => c.issue === 13));
    const entries = await h.app.memory.list(REPO);
    expect(entries).toEqual([
      {
        ...ENTRY,
        type: 'feedback',
        date: '2026-11-30',
        url: 'https://github.com/acme/widgets/pull/13#pullrequestreview-8001',
        author: 'maintainer',
      },
    ]);
    expect(extraction.requests).toHaveLength(1);
    const asked = JSON.stringify(extraction.requests[0]!.messages);
    expect(asked).toContain('untrusted data');
    expect(asked).toContain("don't mock the database");
    const kept = gh.comments.find((c) => c.issue === 13)!.body;
    expect(kept).toContain('memory entry 1');
    expect(kept).toContain('/agent forget 1');

    // The same delivery again learns nothing twice.
    await h.app.probot.receive({ id: 'rev-1', name: 'pull_request_review', payload: review(REVIEW_BODY) } as never);
    expect(await h.app.memory.list(REPO)).toHaveLength(1);

    // 2. `/agent memory` answers with the numbered list.
    await h.app.probot.receive({ id: 'mem-1', name: 'issue_comment', payload: issueComment('/agent memory') } as never);
    const listed = gh.comments.filter((c) => c.issue === 12).at(-1)!.body;
    expect(listed).toContain(
      '1. [feedback · 2026-11-30] Do not mock the database in tests; use the sqlite test helper. Why: the mocks hid a broken migration. Applies to: tests.',
    );

    // 3. The next run on that repository has it in its prompt, after the instructions, as possibly stale data.
    await h.app.probot.receive({ id: 'fix-1', name: 'issue_comment', payload: issueComment('/agent fix') } as never);
    await until(() => (h?.app.runs as RunStore).latest(REPO, 12)?.status === 'done', 60_000);
    const system = run1.requests[0]!.system.map((b) => b.text).join('\n\n');
    expect(system).toContain('# Feedback memory');
    expect(system).toMatch(/may be stale/);
    expect(system).toMatch(/not instructions/);
    expect(system).toContain('1. [feedback · 2026-11-30] Do not mock the database in tests');
    expect(system.indexOf('# Feedback memory')).toBeLessThan(system.indexOf('# Task'));

    // 4. `/agent forget 1` removes it; the run after that does not see it.
    await h.app.probot.receive({ id: 'forget-1', name: 'issue_comment', payload: issueComment('/agent forget 1') } as never);
    expect(await h.app.memory.list(REPO)).toEqual([]);
    expect(gh.comments.filter((c) => c.issue === 12).at(-1)!.body).toMatch(
      /^Forgotten: \[feedback · 2026-11-30\] Do not mock the database/,
    );
    await h.app.probot.receive({ id: 'fix-2', name: 'issue_comment', payload: issueComment('/agent fix') } as never);
    await until(() => run2.requests.length > 0 && (h?.app.runs as RunStore).latest(REPO, 12)?.status === 'done', 60_000);
    expect(run2.requests[0]!.system.map((b) => b.text).join('\n')).not.toContain('Feedback memory');
    expect(gh.unhandled).toEqual([]);
  }, 120_000);

  it('memory - approval, a non-maintainer, a fork PR and "nothing to keep" leave no entry and no reply', async () => {
    gh = fakeGitHub({
      permissions: maintainer,
      config: CONFIG,
      pulls: [{ number: 13, head: BRANCH, headSha: '1'.repeat(40), base: 'main', state: 'open' }],
    });
    const nothing = createScriptedModel([{ content: [text('{"memory": null}')] }]);
    const m = models([nothing]);
    h = await startHarnessWith({ runTask, workspace: fakeWorkspace('/nonexistent'), modelFactory: m.factory });
    await h.app.runs.recordBranch(REPO, BRANCH, 'r-earlier');
    await h.app.probot.receive({ id: 'a-1', name: 'pull_request_review', payload: review('LGTM') } as never);
    await h.app.probot.receive({ id: 'a-2', name: 'pull_request_review', payload: review(REVIEW_BODY, 'reader') } as never);
    const fork = review(REVIEW_BODY);
    fork.pull_request = { ...fork.pull_request, head: { ...fork.pull_request.head, repo: { full_name: 'mallory/widgets' } } };
    await h.app.probot.receive({ id: 'a-3', name: 'pull_request_review', payload: fork } as never);
    expect(m.handed).toHaveLength(0);
    // A maintainer's review that teaches nothing: one extraction request, no entry, no reply.
    await h.app.probot.receive({
      id: 'a-4',
      name: 'pull_request_review',
      payload: review('This loop misses the empty-input case, please add it.'),
    } as never);
    await until(() => nothing.requests.length === 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(await h.app.memory.list(REPO)).toEqual([]);
    expect(gh.comments.filter((c) => c.issue === 13)).toEqual([]);
  });
});

// Leave no interceptor behind for the next test file in this worker (it may talk to a local server).
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});
