/** budget.monthly_usd: the App's run store keeps each run's cost; a run that would start over this month's budget is refused with the spend. */
import { describe, it, expect } from '@jest/globals';
import { fakeRunTask, fakeWorkspace, seedDoneRuns, useAppHarness, type DoneRun } from './harness.js';
import { payload } from '../../github/payloads.js';
import { monthStart } from '../../../src/usecases/accept-request.js';
import type { FakeGitHubOptions } from '../../fakes/github/state.js';

const REPO = 'acme/widgets';
const maintainer = { maintainer: { permission: 'write', role_name: 'write' } };
const comment = (body: string) => payload('issue_comment.created', (p) => (p.comment.body = body));

/** Two finished runs of this month on other issues: $1.75 and $0.75, one verified; another repository's spend is not this one's. */
const SPENT: DoneRun[] = [
  ['r-old-1', REPO, 3, 'verified', 1.75],
  ['r-old-2', REPO, 4, 'unverified', 0.75],
  ['r-other', 'acme/other', 4, 'verified', 40],
];

describe('probot app - monthly budget', () => {
  const app = useAppHarness();

  async function start(config: string) {
    const github: FakeGitHubOptions = { permissions: maintainer, config };
    const fake = fakeRunTask();
    await app.start({ github, runTask: fake.runTask, workspace: fakeWorkspace() });
    await seedDoneRuns(app.runs, SPENT);
    return fake;
  }

  it('budget - /agent fix over budget.monthly_usd is refused with a reply naming the spend so far; nothing starts', async () => {
    const fake = await start('budget:\n  monthly_usd: 2\n');
    await app.receive('issue_comment', comment('/agent fix'), 'b-1');
    const bodies = app.gh.comments.map((c) => c.body);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toContain('spend on this repository is $2.50 over 2 run(s)');
    expect(bodies[0]).toContain('monthly budget of $2.00 (`budget.monthly_usd`), so I did not start');
    expect(fake.inputs).toHaveLength(0);
    expect(app.runs.latest(REPO, 12)).toBeUndefined();
  });

  it("budget - /agent status shows the month's spend, runs and verified rate", async () => {
    await start('budget:\n  monthly_usd: 10\n');
    await app.receive('issue_comment', comment('/agent status'), 'b-2');
    expect(app.gh.comments.map((c) => c.body)).toEqual([
      expect.stringContaining('This month: $2.50 spent of $10.00 over 2 run(s), 1 verified (50%).'),
    ]);
  });

  it('budget - under the budget the run starts', async () => {
    const fake = await start('budget:\n  monthly_usd: 3\n');
    await app.receive('issue_comment', comment('/agent fix'), 'b-3');
    await fake.started;
    expect(fake.inputs).toHaveLength(1);
  });

  it('budget - the period is the calendar month in UTC', () => {
    expect(monthStart(new Date('2026-03-31T23:59:00Z'))).toBe('2026-03-01T00:00:00.000Z');
  });
});
