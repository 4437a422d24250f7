/**
 * The Action's CI wait as GitHub runs CI since 2026-06-11: a pull request the workflow's GITHUB_TOKEN opened
 * starts its workflows held for approval. The bundled Action on local fakes: a run held for approval is
 * `ci.state: awaiting-approval` within 30 s of the PR (evidence, PR body, job summary), never "CI failed";
 * with no workflow file, `not-run` within 10 s; an unreadable token identity falls back to the runs; with an
 * App token it watches to the conclusion (heartbeat lines while it waits).
 */
import { describe, it, expect, afterEach } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { actionFixture, issueCommentEvent, TOKEN, type ActionFixture } from './harness.js';

interface CiEv {
  ci?: { state: string; cause?: string; checks: unknown[] };
}

const ciOf = (evidencePath: string): CiEv['ci'] => (JSON.parse(readFileSync(evidencePath, 'utf8')) as CiEv).ci;
const ciPolls = (fx: ActionFixture): string[] =>
  fx.github.log.filter((l) => l.startsWith('GET') && /\/(check-runs|statuses|actions\/runs)(\?|$)/.test(l));

describe('action: CI wait and the push token', () => {
  let fx: ActionFixture | undefined;
  afterEach(async () => {
    await fx?.close();
    fx = undefined;
  });

  /** Runs the step; returns its result and the seconds from the PR's appearance to the step's end. */
  async function timedRun(f: ActionFixture): Promise<{ r: Awaited<ReturnType<ActionFixture['run']>>; seconds: number }> {
    let prAt = 0;
    const watchPr = setInterval(() => (prAt ||= f.github.pulls.length > 0 ? Date.now() : 0), 50);
    const r = await f.run('issue_comment', issueCommentEvent('/agent fix')).finally(() => clearInterval(watchPr));
    expect(prAt).toBeGreaterThan(0);
    return { r, seconds: (Date.now() - prAt) / 1000 };
  }

  it('action ci - the workflow GITHUB_TOKEN, its run held for approval: awaiting-approval within 30 s of the PR', async () => {
    fx = await actionFixture(
      undefined,
      (url) => ({
        workflows: { '.github/workflows/ci.yml': 'on: pull_request\njobs: {}\n' },
        ci: () => ({
          workflow_runs: [
            {
              id: 7,
              name: 'CI',
              event: 'pull_request',
              status: 'completed',
              conclusion: 'action_required',
              html_url: `${url}/acme/demo/actions/runs/7`,
            },
          ],
        }),
      }),
      { tokenLogin: 'github-actions[bot]' },
    );
    fx.github.permissions = { alice: 'write' };
    const { r, seconds } = await timedRun(fx);
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(0);
    expect(r.outputs.verdict).toBe('verified');
    expect(seconds).toBeLessThan(30);
    expect(r.stdout).toMatch(/CI on [0-9a-f]{12}: awaiting-approval/);
    const ci = ciOf(r.outputs.evidence_path ?? '');
    expect(ci?.state).toBe('awaiting-approval');
    expect(ci?.cause).toMatch(/someone with write access to the repository must approve "CI" \(http[^)]*\/actions\/runs\/7\)/);
    expect(r.summary).toContain('waiting for a maintainer to approve');
    expect(fx.github.pulls[0]?.body).toContain('state `awaiting-approval`');
    expect(r.summary).not.toContain('CI failed');
  }, 120000);

  it('action ci - no workflow file in the repository: not-run within 10 s of the PR', async () => {
    // No check ever appears and no workflow exists: a watch would sit out the grace period.
    fx = await actionFixture(undefined, () => ({ ci: () => ({}) }), { tokenLogin: 'github-actions[bot]' });
    fx.github.permissions = { alice: 'write' };
    const { r, seconds } = await timedRun(fx);
    expect(r.code).toBe(0);
    expect(seconds).toBeLessThan(10);
    const ci = ciOf(r.outputs.evidence_path ?? '');
    expect(ci?.state).toBe('not-run');
    expect(ci?.cause).toMatch(/^no workflow: the repository has no workflow under \.github\/workflows/);
    expect(r.stdout).toContain('(CI not-run)');
    expect(fx.github.pulls[0]?.body).toContain('Cause: no workflow');
  }, 120000);

  it('action ci - the token identity cannot be read: what the runs say decides', async () => {
    fx = await actionFixture(
      undefined,
      (url) => ({
        workflows: { '.github/workflows/ci.yml': 'on: [pull_request]\n' },
        ci: () => ({
          workflow_runs: [
            { id: 8, name: 'tests', event: 'pull_request', status: 'action_required', conclusion: null, html_url: `${url}/r/8` },
          ],
        }),
      }),
      { tokenLogin: null },
    );
    fx.github.permissions = { alice: 'write' };
    const { r, seconds } = await timedRun(fx);
    expect(r.code).toBe(0);
    expect(seconds).toBeLessThan(30);
    expect(ciOf(r.outputs.evidence_path ?? '')?.state).toBe('awaiting-approval');
  }, 120000);

  it('action ci - with an App token it watches CI until it completes, a heartbeat line at least every interval', async () => {
    // CI runs for ~10 s (the first poll sees it in progress, the next one done).
    let polls = 0;
    fx = await actionFixture(undefined, (url) => ({
      ci: () => {
        polls += 1;
        const done = polls > 1;
        return {
          check_runs: [
            {
              id: 3,
              name: 'test',
              status: done ? 'completed' : 'in_progress',
              conclusion: done ? 'success' : null,
              html_url: `${url}/acme/demo/runs/3`,
              app: { slug: 'github-actions' },
            },
          ],
        };
      },
    }));
    fx.github.permissions = { alice: 'write' };
    const r = await fx.run('issue_comment', issueCommentEvent('/agent fix'), {}, { PROOFPR_HEARTBEAT_MS: '2000' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/waiting for CI on [0-9a-f]{12} \(ci\.wait_min: 30; the github_token input acts as proofpr-test-app\[bot\]\)/);
    const beats = r.stdout.split('\n').filter((l) => /^… still: waiting for CI on [0-9a-f]{12} · \d+s$/.test(l));
    expect(beats.length).toBeGreaterThanOrEqual(3);
    expect(r.stdout).toMatch(/CI on [0-9a-f]{12}: passed/);
    expect(ciOf(r.outputs.evidence_path ?? '')?.state).toBe('passed');
    expect(ciPolls(fx).length).toBeGreaterThan(0);
  }, 120000);

  it('action ci - the workflow token (GITHUB_TOKEN in the env) with ci.wait_min set in the config still watches', async () => {
    fx = await actionFixture((dir) => {
      const cfg = join(dir, '.github', 'proofpr.yml');
      writeFileSync(cfg, `${readFileSync(cfg, 'utf8')}ci:\n  wait_min: 2\n`);
    });
    fx.github.permissions = { alice: 'write' };
    const r = await fx.run('issue_comment', issueCommentEvent('/agent fix'), {}, { GITHUB_TOKEN: TOKEN });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/waiting for CI on [0-9a-f]{12} \(ci\.wait_min: 2; the github_token input equals GITHUB_TOKEN\)/);
    expect(ciOf(r.outputs.evidence_path ?? '')?.state).toBe('passed');
  }, 120000);
});
