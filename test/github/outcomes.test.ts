/**
 * Issue 40, "Outcomes": `proofpr outcomes` against a fake GitHub (nock) holding merged, closed, reverted and
 * open pull requests, proofpr's own and others' it verified, plus ones it has nothing to do with, over two
 * pages: the right table, by verdict; and the /metrics gauges from the same table.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { outcomeTable, prOutcomes } from '../../src/github/outcomes.js';
import { createTokenOctokit } from '../../src/github/token-octokit.js';
import { outcomesCommand, parseSince } from '../../src/hosts/cli/outcomes-command.js';
import { createMetrics } from '../../src/metrics/metrics.js';

const API = 'https://api.github.test';
const NOW = new Date('2026-12-06T12:00:00Z');
const SINCE = new Date('2026-11-06T12:00:00Z');

const pr = (
  n: number,
  o: { title: string; ref: string; fork?: boolean; body?: string; state?: string; merged?: string; mergeSha?: string; created?: string },
) => ({
  number: n,
  title: o.title,
  body: o.body ?? '',
  html_url: `https://github.test/o/r/pull/${n}`,
  state: o.state ?? 'closed',
  created_at: o.created ?? `2026-11-${String(10 + n).padStart(2, '0')}T00:00:00Z`,
  merged_at: o.merged ?? null,
  merge_commit_sha: o.mergeSha ?? null,
  head: { ref: o.ref, sha: `head${n}`, repo: { full_name: o.fork ? 'someone/r' : 'o/r' } },
  base: { ref: 'main' },
});

/** Newest first, as GitHub lists them with sort=created&direction=desc. */
const PAGE_1 = [
  pr(9, { title: 'Fork change', ref: 'proofpr/9-fork', fork: true, state: 'open' }),
  pr(8, { title: 'Revert "Feature A"', ref: 'revert-5-feature', body: 'Reverts o/r#5', state: 'open' }),
  pr(7, { title: 'Unrelated', ref: 'feature/b', state: 'open' }),
  pr(6, { title: 'Feature A', ref: 'feature/a', merged: '2026-11-17T00:00:00Z', mergeSha: 'f5' }),
  pr(5, { title: 'Fix five', ref: 'proofpr/5-five', body: '## ✅ proofpr: verified\n', state: 'open' }),
];
const PAGE_2 = [
  pr(4, { title: 'Fix four', ref: 'proofpr/4-four', body: '## ⚠️ proofpr: unverified\n' }),
  pr(3, {
    title: 'Fix three',
    ref: 'proofpr/3-three',
    body: '## ✅ proofpr: verified\n',
    merged: '2026-11-14T00:00:00Z',
    mergeSha: 'c3c3',
  }),
  pr(2, { title: 'Fix two', ref: 'proofpr/2-two', body: '## ✅ proofpr: verified\n', merged: '2026-11-13T00:00:00Z', mergeSha: 'b2b2' }),
  pr(1, {
    title: 'Old',
    ref: 'proofpr/1-old',
    body: '## ✅ proofpr: verified\n',
    merged: '2026-10-01T00:00:00Z',
    created: '2026-10-01T00:00:00Z',
  }),
];
const COMMITS = [
  { sha: 'r3', commit: { message: 'Revert "Fix three (#3)"\n\nThis reverts commit c3c3.' } },
  { sha: 'x1', commit: { message: 'Mention c3c3 and Fix two without reverting' } },
];
/** Heads with proofpr's check: the fork's PR (failure) and Feature A (success). */
const CHECKS: Record<string, { conclusion: string }> = { head9: { conclusion: 'failure' }, head6: { conclusion: 'success' } };

function fakeGitHub(): nock.Scope {
  const scope = nock(API)
    .get('/repos/o/r/pulls')
    .query((q) => q.state === 'all' && q.sort === 'created' && q.direction === 'desc' && q.page === undefined)
    .reply(200, PAGE_1, { link: `<${API}/repos/o/r/pulls?state=all&sort=created&direction=desc&per_page=100&page=2>; rel="next"` })
    .get('/repos/o/r/pulls')
    .query((q) => q.page === '2')
    .reply(200, PAGE_2)
    .get('/repos/o/r/commits')
    .query((q) => q.sha === 'main' && typeof q.since === 'string')
    .reply(200, COMMITS);
  scope
    .get(/\/repos\/o\/r\/commits\/head\d+\/check-runs/)
    .query(true)
    .times(20)
    .reply((uri) => {
      const sha = /commits\/(head\d+)\//.exec(uri)?.[1] ?? '';
      const name = new URL(uri, API).searchParams.get('check_name');
      const c = CHECKS[sha];
      return [
        200,
        {
          total_count: c && name === 'proofpr/verified' ? 1 : 0,
          check_runs: c && name === 'proofpr/verified' ? [{ status: 'completed', ...c }] : [],
        },
      ];
    });
  return scope;
}

describe('proofpr outcomes', () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(() => nock.enableNetConnect());

  it('outcomes - merged, reverted (by a commit and by a PR), closed and open PRs, by verdict', async () => {
    fakeGitHub();
    const prs = await prOutcomes({ octokit: createTokenOctokit({ token: 't', baseUrl: API }), owner: 'o', repo: 'r', since: SINCE });
    expect(prs.map((p) => [p.number, p.by, p.verdict, p.state, p.revertedBy ?? ''])).toEqual([
      [9, 'verified', 'unverified', 'open', ''],
      [6, 'verified', 'verified', 'reverted', '#8'],
      [5, 'opened', 'verified', 'open', ''],
      [4, 'opened', 'unverified', 'closed', ''],
      [3, 'opened', 'verified', 'reverted', 'r3'],
      [2, 'opened', 'verified', 'merged', ''],
    ]);
    expect(outcomeTable(prs)).toEqual([
      { verdict: 'verified', prs: 4, merged: 1, reverted: 2, closed: 0, open: 1 },
      { verdict: 'unverified', prs: 2, merged: 0, reverted: 0, closed: 1, open: 1 },
    ]);
  });

  it('outcomes - the command prints the table (and with --json one JSON line)', async () => {
    fakeGitHub();
    let out = '';
    const code = await outcomesCommand(
      { githubRepo: 'o/r', since: '2026-11-06T12:00:00Z', json: true },
      { env: { GITHUB_TOKEN: 't', GITHUB_API_URL: API }, write: (s) => (out += s), now: NOW },
    );
    expect(code).toBe(0);
    const [text, json] = [out.slice(0, out.lastIndexOf('{"repository"')), out.slice(out.lastIndexOf('{"repository"'))];
    expect(text).toBe(
      [
        'Pull requests proofpr opened or verified on o/r since 2026-11-06: 6',
        '',
        'verdict     PRs  merged (kept)  merged, reverted later  closed unmerged  open',
        'verified      4              1                       2                0     1',
        'unverified    2              0                       0                1     1',
        'all           6              1                       2                1     2',
        '',
        'Reverted:',
        '  #6 (verified) Feature A: reverted by #8',
        '  #3 (verified) Fix three: reverted by r3',
        '',
      ].join('\n'),
    );
    expect(JSON.parse(json)).toMatchObject({ repository: 'o/r', rows: [{ verdict: 'verified', reverted: 2 }, { verdict: 'unverified' }] });
  });

  it('outcomes - --since takes a date or days back; bad input names the flag and the fix', async () => {
    expect(parseSince('30d', NOW).toISOString()).toBe('2026-11-06T12:00:00.000Z');
    expect(parseSince('2026-11-01', NOW).toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(() => parseSince('last week', NOW)).toThrow('--since last week: expected a date (2026-11-01) or a number of days back (30d)');
    await expect(outcomesCommand({ githubRepo: 'o' }, { env: { GITHUB_TOKEN: 't' } })).rejects.toThrow(
      '--github-repo o: expected OWNER/NAME',
    );
    await expect(outcomesCommand({ githubRepo: 'o/r' }, { env: {} })).rejects.toThrow('GITHUB_TOKEN is not set');
  });

  it('outcomes - /metrics: proofpr_pull_requests by repository, verdict and outcome, the source asked once per ttl', async () => {
    let t = 0;
    let asked = 0;
    const metrics = createMetrics(() => t);
    metrics.attachOutcomes(async () => {
      asked++;
      return [{ repository: 'o/r', rows: [{ verdict: 'verified', merged: 1, reverted: 2, closed: 0, open: 1 }] }];
    }, 60_000);
    const text = await metrics.render();
    expect(text).toContain('proofpr_pull_requests{repository="o/r",verdict="verified",outcome="reverted"} 2');
    expect(text).toContain('proofpr_pull_requests{repository="o/r",verdict="verified",outcome="merged"} 1');
    await metrics.render();
    expect(asked).toBe(1);
    t = 61_000;
    await metrics.render();
    expect(asked).toBe(2);
  });
});
