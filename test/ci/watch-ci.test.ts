import { describe, it, expect } from '@jest/globals';
import { watchCi, backoffMs } from '../../src/usecases/watch-ci.js';
import { ciSnapshot } from '../../src/usecases/ci-state.js';
import { check, fakeCi, fakeClock } from './fake-ci.js';

const base = { sha: 'a'.repeat(40), waitMin: 30, ownCheckName: 'proofpr', pushedByAction: false, changedFiles: ['src/x.ts'] };

describe('watch CI - the pushed commit', () => {
  it("ci - passes once every check run and status completed green; proofpr's own check is not counted", async () => {
    const clock = fakeClock();
    const ci = fakeCi(clock, (t) => ({
      checkRuns: [
        check('proofpr', 'completed', 'success', 'proofpr'),
        t < 60_000 ? check('test', 'in_progress') : check('test', 'completed', 'success'),
      ],
      statuses: [{ context: 'ci/legacy', state: 'success', url: 'https://ci.example/legacy' }],
    }));
    const out = await watchCi(base, { ci, clock });
    expect(out).toEqual({
      sha: base.sha,
      state: 'passed',
      checks: [
        { name: 'test', conclusion: 'success', url: 'https://ci.example/test' },
        { name: 'ci/legacy', conclusion: 'success', url: 'https://ci.example/legacy' },
      ],
    });
    expect(clock.sleeps).toEqual([10_000, 20_000, 40_000]);
  });

  it('ci - fails when a check concludes failure; the newest status per context counts', () => {
    const snap = ciSnapshot([check('lint', 'completed', 'success'), check('test', 'completed', 'failure')], [], { checkName: 'proofpr' });
    expect(snap.state).toBe('failed');
    const statuses = ciSnapshot(
      [],
      [
        { context: 'x', state: 'success', url: '' },
        { context: 'x', state: 'failure', url: '' },
      ],
      { checkName: 'proofpr' },
    );
    expect(statuses.state).toBe('passed');
  });

  it('ci - no workflow starts on pull_request: not-run at the first look, before any wait', async () => {
    const clock = fakeClock();
    const ci = fakeCi(clock, () => ({}), { workflows: [{ path: '.github/workflows/release.yml', events: ['release'] }] });
    const out = await watchCi(base, { ci, clock });
    expect(out?.state).toBe('not-run');
    expect(out?.cause).toMatch(/^no workflow on pull_request/);
    expect(clock.sleeps).toEqual([]);
  });

  it('ci - no workflow file at all: not-run at the first look', async () => {
    const clock = fakeClock();
    const ci = fakeCi(clock, () => ({}), { workflows: [] });
    const out = await watchCi(base, { ci, clock });
    expect(out).toMatchObject({ state: 'not-run', checks: [] });
    expect(out?.cause).toMatch(/^no workflow: the repository has no workflow/);
    expect(clock.sleeps).toEqual([]);
  });

  it('ci - workflow files unreadable and nothing starts: not-run after the grace period, not the whole wait', async () => {
    const clock = fakeClock();
    const ci = fakeCi(clock, () => ({}));
    const out = await watchCi({ ...base, graceMs: 60_000 }, { ci, clock });
    expect(out?.state).toBe('not-run');
    expect(clock.t).toBeGreaterThanOrEqual(60_000);
    expect(clock.t).toBeLessThan(2 * 60_000);
  });

  it.each([
    ['a workflow run concluded action_required', { status: 'completed', conclusion: 'action_required' }],
    ['a workflow run with status action_required', { status: 'action_required', conclusion: null }],
    ['a workflow run waiting for an environment approval', { status: 'waiting', conclusion: null }],
  ])('ci - %s: awaiting-approval at once, naming the run and who approves', async (_t, run) => {
    const clock = fakeClock();
    const ci = fakeCi(clock, () => ({
      checkRuns: [check('lint', 'completed', 'success')],
      workflowRuns: [
        { id: 1, name: 'CI', event: 'pull_request', url: 'https://ci.example/runs/1', createdAt: '', headSha: base.sha, ...run },
      ],
    }));
    const out = await watchCi(base, { ci, clock });
    expect(out?.state).toBe('awaiting-approval');
    expect(out?.cause).toMatch(
      /^awaiting approval: someone with write access to the repository must approve "CI" \(https:\/\/ci\.example\/runs\/1\) \(GitHub holds/,
    );
    expect(clock.sleeps).toEqual([]);
  });

  it('ci - a check run concluded action_required is awaiting approval, never a failure', async () => {
    const clock = fakeClock();
    const ci = fakeCi(clock, () => ({ checkRuns: [check('build', 'completed', 'action_required')] }));
    const out = await watchCi(base, { ci, clock });
    expect(out?.state).toBe('awaiting-approval');
    expect(out?.cause).toMatch(/"build"/);
  });

  it('ci - a failed check with another run held for approval: failed', async () => {
    const clock = fakeClock();
    const ci = fakeCi(clock, () => ({
      checkRuns: [check('test', 'completed', 'failure'), check('deploy', 'completed', 'action_required')],
    }));
    expect((await watchCi(base, { ci, clock }))?.state).toBe('failed');
  });

  it('ci - a held run without a url is named by its name alone', async () => {
    const clock = fakeClock();
    const ci = fakeCi(clock, () => ({
      workflowRuns: [
        {
          id: 1,
          name: 'CI',
          event: 'pull_request',
          status: 'completed',
          conclusion: 'action_required',
          url: '',
          createdAt: '',
          headSha: base.sha,
        },
      ],
    }));
    const out = await watchCi(base, { ci, clock });
    expect(out?.state).toBe('awaiting-approval');
    expect(out?.cause).toMatch(/must approve "CI" \(GitHub holds/);
    expect(clock.sleeps).toEqual([]);
  });

  it('ci - pushed by the Action with its token: the cause says so', async () => {
    const clock = fakeClock();
    const ci = fakeCi(clock, () => ({}), { workflows: [{ path: '.github/workflows/ci.yml', events: ['pull_request'] }] });
    const out = await watchCi({ ...base, pushedByAction: true }, { ci, clock });
    expect(out?.cause).toMatch(/^pushed with GITHUB_TOKEN: no workflow run appeared for this commit/);
  });

  it('ci - a changed workflow file is named as the likely cause', async () => {
    const clock = fakeClock();
    const ci = fakeCi(clock, () => ({}), { workflows: [{ path: '.github/workflows/ci.yml', events: ['pull_request'] }] });
    const out = await watchCi({ ...base, changedFiles: ['.github/workflows/ci.yml'] }, { ci, clock });
    expect(out?.cause).toMatch(/^workflow file changed: the push changed \.github\/workflows\/ci\.yml/);
  });

  it('ci - still running at ci.wait_min: pending with the checks that were running', async () => {
    const clock = fakeClock();
    const ci = fakeCi(clock, () => ({ checkRuns: [check('e2e', 'in_progress')] }));
    const out = await watchCi({ ...base, waitMin: 3 }, { ci, clock });
    expect(out).toMatchObject({ state: 'pending', checks: [{ name: 'e2e', conclusion: 'pending' }] });
    expect(out?.cause).toMatch(/still running after 3 min \(ci.wait_min: 3\): e2e/);
    expect(clock.t).toBe(3 * 60_000);
  });

  it('ci - wait_min 0 turns the watch off', async () => {
    const clock = fakeClock();
    const ci = fakeCi(clock, () => ({}));
    expect(await watchCi({ ...base, waitMin: 0 }, { ci, clock })).toBeUndefined();
    expect(ci.polls).toBe(0);
  });

  it('ci - a webhook wakes the wait early: the sleep is handed the wake promise', async () => {
    const clock = fakeClock();
    const wakes: number[] = [];
    const ci = fakeCi(clock, () => ({
      checkRuns: [check('test', ci.polls >= 2 ? 'completed' : 'queued', ci.polls >= 2 ? 'success' : null)],
    }));
    let handed: Promise<void> | undefined;
    const sleepy = {
      now: clock.now,
      sleep: async (_ms: number, wake?: Promise<void>) => {
        handed = wake;
        await wake;
      },
    };
    const out = await watchCi(
      {
        ...base,
        wake: () => {
          wakes.push(clock.now());
          return Promise.resolve();
        },
      },
      { ci, clock: sleepy },
    );
    expect(out?.state).toBe('passed');
    expect(wakes).toHaveLength(1);
    expect(handed).toBeDefined();
  });

  it('ci - backoff doubles from 10 s to a 60 s ceiling', () => {
    expect([0, 1, 2, 3, 4].map(backoffMs)).toEqual([10_000, 20_000, 40_000, 60_000, 60_000]);
  });
});
