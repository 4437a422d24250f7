/**
 * The Action's CI wait knows GitHub's rule: a push made with the workflow's GITHUB_TOKEN starts no workflow
 * run. The bundled Action on local fakes: with the workflow token (its identity is github-actions[bot]) the
 * step ends right after the PR with `ci.state: not-run` and the cause and fix in the evidence, the PR body
 * and the job summary, without polling CI; with an App token it watches (heartbeat lines while it waits);
 * with the workflow token and ci.wait_min set in the config, it watches too.
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

  it('action ci - pushed with the workflow GITHUB_TOKEN: not-run at once with the cause, no CI polling', async () => {
    // No check ever appears: a watch would sit out the 5 min grace period.
    fx = await actionFixture(undefined, () => ({ ci: () => ({}) }), { tokenLogin: 'github-actions[bot]' });
    fx.github.permissions = { alice: 'write' };
    // When the PR appears in the fake, and when the step ends.
    let prAt = 0;
    const f = fx;
    const watchPr = setInterval(() => (prAt ||= f.github.pulls.length > 0 ? Date.now() : 0), 50);
    const r = await fx.run('issue_comment', issueCommentEvent('/agent fix')).finally(() => clearInterval(watchPr));
    const seconds = (Date.now() - prAt) / 1000;
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(0);
    expect(r.outputs.verdict).toBe('verified');
    expect(prAt).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(15);
    expect(ciPolls(fx)).toEqual([]);
    expect(r.stdout).toMatch(/CI on [0-9a-f]{12}: not-run \(the github_token input acts as github-actions\[bot\]/);
    expect(r.stdout).toContain('(CI not-run)');
    const ci = ciOf(r.outputs.evidence_path ?? '');
    expect(ci?.state).toBe('not-run');
    expect(ci?.cause).toMatch(/GITHUB_TOKEN: GitHub starts no workflow run/);
    expect(ci?.cause).toMatch(/GitHub App installation token .* or a fine-grained personal access token .* `github_token` input/);
    expect(r.summary).toContain('did not run');
    expect(r.summary).toContain("pushed with the workflow's GITHUB_TOKEN");
    expect(fx.github.pulls[0]?.body).toContain("Cause: pushed with the workflow's GITHUB_TOKEN");
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
