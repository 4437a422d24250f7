/**
 * The App end to end on local fakes (signed-off webhooks through Probot, the REST stand-in with checks,
 * statuses and Actions, an injected clock): after a verified push, the repository's own CI on that sha
 * lands in evidence.json, the PR body, the check run and the status comment.
 */
import { describe, it, expect } from '@jest/globals';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeGitHubOptions } from '../fakes/github/state.js';
import { evidence, fakeRunTask, until, useAppHarness } from '../hosts/probot/harness.js';
import { payload } from '../github/payloads.js';
import type { RunTask } from '../../src/run/run-task-types.js';
import { failedCiRun, failedLintJob, fakeClock } from './fake-ci.js';

const REPO = 'acme/widgets';
const SHA = 'c'.repeat(40);
const maintainer = { maintainer: { permission: 'write', role_name: 'write' } };
const fix = payload('issue_comment.created', (p) => (p.comment.body = '/agent fix'));

/** The fake run, writing its evidence.json like the real one does. */
function writingRunTask(): RunTask {
  const inner = fakeRunTask().runTask;
  return async (input) => {
    const out = await inner(input);
    mkdirSync(input.runDir, { recursive: true });
    writeFileSync(join(input.runDir, 'evidence.json'), JSON.stringify(evidence('verified', { runId: input.runId })));
    return out;
  };
}

const checkRun = (name: string, status: string, conclusion: string | null) => ({
  id: 1,
  name,
  status,
  conclusion,
  html_url: `https://github.com/acme/widgets/runs/${name}`,
  app: { slug: 'github-actions' },
});

describe('App - CI on the pushed commit', () => {
  const app = useAppHarness();

  const runOnce = async (): Promise<string> => {
    await app.receive('issue_comment', fix, 'ci-1');
    await app.done(12);
    await app.h.app.ciWatcher.idle();
    return app.runs.latest(REPO, 12)?.id ?? '';
  };

  it('app ci - CI passes → evidence ci.state passed, and the PR body, check run and status comment say so', async () => {
    let polls = 0;
    const github: FakeGitHubOptions = {
      permissions: maintainer,
      ci: (sha: string) => {
        expect(sha).toBe(SHA);
        polls += 1;
        const done = polls > 2;
        return {
          check_runs: [
            checkRun('proofpr', 'completed', 'success'),
            checkRun('test', done ? 'completed' : 'in_progress', done ? 'success' : null),
          ],
          statuses: [],
        };
      },
    };
    const clock = fakeClock();
    await app.start({ github, runTask: writingRunTask(), ciClock: clock });
    const runId = await runOnce();

    const ev = JSON.parse(readFileSync(join(app.h.home, 'runs', runId, 'evidence.json'), 'utf8')) as { ci?: unknown };
    expect(ev.ci).toEqual({
      sha: SHA,
      state: 'passed',
      checks: [{ name: 'test', conclusion: 'success', url: 'https://github.com/acme/widgets/runs/test' }],
    });
    const body = (app.gh.calledWith('PATCH', /\/pulls\/100$/).at(-1)?.body as { body: string }).body;
    expect(body).toMatch(/^Fixes #12\n\n## proofpr: verified/);
    expect(body).toContain('**CI passed ✅ on `cccccccccccc` (1 check)** — state `passed`');
    const checks = app.gh.calledWith('POST', /\/check-runs$/);
    expect(checks).toHaveLength(2);
    expect((checks[1]?.body as { output: { summary: string } }).output.summary).toContain('CI passed');
    expect(app.gh.comments.find((c) => c.body.includes('proofpr:run='))?.body).toContain('CI passed ✅ on `cccccccccccc`');
    expect(clock.sleeps.length).toBeGreaterThan(0);
    expect(app.gh.unhandled).toEqual([]);
  });

  it('app ci - CI never starts → not-run with its cause within the wait', async () => {
    const github: FakeGitHubOptions = {
      permissions: maintainer,
      config: 'ci:\n  wait_min: 10\n  fix_rounds: 0\n',
      ci: () => ({}),
      workflows: { '.github/workflows/release.yml': 'on:\n  release:\n    types: [published]\njobs: {}\n' },
    };
    const clock = fakeClock();
    await app.start({ github, runTask: writingRunTask(), ciClock: clock });
    const runId = await runOnce();
    const ev = JSON.parse(readFileSync(join(app.h.home, 'runs', runId, 'evidence.json'), 'utf8')) as {
      ci?: { state: string; cause: string };
    };
    expect(ev.ci?.state).toBe('not-run');
    expect(ev.ci?.cause).toMatch(/^no workflow on pull_request/);
    expect(clock.t).toBeLessThanOrEqual(10 * 60_000);
    const body = (app.gh.calledWith('PATCH', /\/pulls\/100$/).at(-1)?.body as { body: string }).body;
    expect(body).toContain('CI did not run ⚠️');
    expect(body).toContain('Cause: no workflow on pull_request');
    expect(app.gh.unhandled).toEqual([]);
  });

  it('app ci - a check_suite webhook for the sha wakes the watch (no wait for the next poll)', async () => {
    let finished = false;
    const github: FakeGitHubOptions = {
      permissions: maintainer,
      ci: () => ({ check_runs: [checkRun('test', finished ? 'completed' : 'in_progress', finished ? 'failure' : null)] }),
    };
    // A clock whose sleep only ends on a wake: the watch can only finish through the webhook.
    const slept: number[] = [];
    const clock = {
      now: () => 0,
      sleep: async (ms: number, wake?: Promise<void>) => {
        slept.push(ms);
        await wake;
      },
    };
    await app.start({ github, runTask: writingRunTask(), ciClock: clock });
    await app.receive('issue_comment', fix, 'ci-w');
    await until(() => slept.length > 0);
    finished = true;
    await app.receive(
      'check_suite',
      {
        action: 'completed',
        check_suite: { head_sha: SHA },
        repository: { name: 'widgets', owner: { login: 'acme' } },
        installation: { id: 42 },
      },
      'cs-1',
    );
    await app.h.app.ciWatcher.idle();
    const body = (app.gh.calledWith('PATCH', /\/pulls\/100$/).at(-1)?.body as { body: string }).body;
    expect(body).toContain('CI failed ❌');
    expect(slept).toHaveLength(1);
  });
  it("app ci - CI fails → a CI fix round is queued as a follow-up job (CI's log as its task, reproduce first); after the last round a comment says what still fails", async () => {
    const github: FakeGitHubOptions = {
      permissions: maintainer,
      ci: (sha: string) => {
        // The PR's head is the sha proofpr pushed (the fake workspace pushes nothing).
        for (const p of app.gh.pulls) p.headSha = SHA;
        return {
          check_runs: [checkRun('lint', 'completed', 'failure')],
          workflow_runs: [failedCiRun(500, sha, 'https://github.com/acme/widgets/actions/runs/500')],
        };
      },
      jobs: {
        '500': [
          failedLintJob('https://github.com/acme/widgets/actions/runs/500/job/900', [
            { name: 'Run npm run lint', number: 1, conclusion: 'failure' },
          ]),
        ],
      },
      logs: {
        '900': '##[group]Run npm run lint\nnpm run lint\n##[endgroup]\nsrc/a.ts: 1 error\n##[error]Process completed with exit code 1.',
      },
    };
    const clock = fakeClock();
    const fake = fakeRunTask();
    const inner = writingRunTask();
    const runTask: RunTask = async (input) => (await fake.runTask(input), inner(input));
    await app.start({ github, runTask, ciClock: clock });
    await app.receive('issue_comment', fix, 'ci-f');
    await until(() => app.gh.comments.some((c) => /CI still fails/.test(c.body)));
    expect(fake.inputs).toHaveLength(2);
    const round = fake.inputs[1];
    expect(round?.continueBranch).toBe(true);
    expect(round?.reproduce).toEqual({ commands: ['npm run lint'] });
    expect(round?.task.body).toContain(`## CI failed on commit ${SHA}`);
    expect(round?.task.body).toContain('> src/a.ts: 1 error');
    const still = app.gh.comments.find((c) => /CI still fails/.test(c.body))?.body ?? '';
    expect(still).toMatch(/^CI still fails on `cccccccccccc` after 1 CI fix round\(s\) \(ci\.fix_rounds: 1\)/);
    expect(still).toContain('- lint');
    expect(app.gh.comments.filter((c) => /CI still fails/.test(c.body))).toHaveLength(1);
  });
});
