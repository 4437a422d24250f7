/**
 * The App's per-installation budget (PROOFPR_INSTALLATION_MONTHLY_USD): an installation belongs to one account,
 * so its spend is this month's runs of every repository of that owner. A run on a second repository is refused
 * once the first's runs reached it, with a reply naming that budget, the spend and how to raise it.
 */
import { describe, it, expect } from '@jest/globals';
import { fakeRunTask, fakeWorkspace, seedDoneRuns, testPrivateKey, useAppHarness, type DoneRun } from './harness.js';
import { payload } from '../../github/payloads.js';
import { readServerEnv } from '../../../src/hosts/shared/server-env.js';

const maintainer = { maintainer: { permission: 'write', role_name: 'write' } };
/** A comment on issue #12 of acme/gadgets: the second repository of the same account. */
const onGadgets = (body: string) =>
  payload('issue_comment.created', (p) => {
    p.comment.body = body;
    p.repository.name = 'gadgets';
    p.repository.full_name = 'acme/gadgets';
    p.issue.html_url = 'https://github.com/acme/gadgets/issues/12';
  });

/** acme/widgets' runs of this month: $3.00 and $2.50, one verified; another account's spend is not acme's. */
const SPENT: DoneRun[] = [
  ['w-1', 'acme/widgets', 3, 'verified', 3],
  ['w-2', 'acme/widgets', 4, 'unverified', 2.5],
  ['x-1', 'other/gadgets', 4, 'verified', 100],
];

describe('probot app - installation budget', () => {
  const app = useAppHarness();

  async function start(installationUsd: string | undefined, config = '') {
    const fake = fakeRunTask();
    await app.start({
      github: { repo: 'gadgets', permissions: maintainer, config },
      runTask: fake.runTask,
      workspace: fakeWorkspace(),
      ...(installationUsd ? { env: { PROOFPR_INSTALLATION_MONTHLY_USD: installationUsd } } : {}),
    });
    await seedDoneRuns(app.runs, SPENT);
    return fake;
  }

  it("installation budget - a second repository of the owner is refused once the first's runs reached it; the reply names the budget, the spend and how to raise it", async () => {
    const fake = await start('5');
    await app.receive('issue_comment', onGadgets('/agent fix'), 'ib-1');
    const bodies = app.gh.comments.map((c) => c.body);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toContain("spend across acme's repositories (this App installation) is $5.50 over 2 run(s)");
    expect(bodies[0]).toContain(
      "the installation's monthly budget of $5.00 (`PROOFPR_INSTALLATION_MONTHLY_USD`, the App's setting), so I did not start",
    );
    expect(bodies[0]).toContain('can raise PROOFPR_INSTALLATION_MONTHLY_USD in its environment');
    expect(fake.inputs).toHaveLength(0);
    expect(app.runs.latest('acme/gadgets', 12)).toBeUndefined();
  });

  it("installation budget - under it (another account's spend not counted) the run starts", async () => {
    const fake = await start('6');
    await app.receive('issue_comment', onGadgets('/agent fix'), 'ib-2');
    await fake.started;
    expect(fake.inputs).toHaveLength(1);
    expect(app.runs.latest('acme/gadgets', 12)?.id).toBeDefined();
  });

  it("installation budget - the repository's own budget.monthly_usd still refuses first, and says it is the repository's", async () => {
    const fake = await start('100', 'budget:\n  monthly_usd: 1\n');
    app.runs.tryCreate({ id: 'g-1', repo: 'acme/gadgets', issue: 5, kind: 'fix' });
    app.runs.update('g-1', { status: 'done', verdict: 'verified', costUsd: 1.25 });
    await app.receive('issue_comment', onGadgets('/agent fix'), 'ib-3');
    const [body] = app.gh.comments.map((c) => c.body);
    expect(body).toContain('spend on this repository is $1.25 over 1 run(s)');
    expect(body).toContain('(`budget.monthly_usd`)');
    expect(fake.inputs).toHaveLength(0);
  });

  it("installation budget - /agent status shows the installation's month when the setting is on", async () => {
    await start('20');
    await app.receive('issue_comment', onGadgets('/agent status'), 'ib-4');
    const [body] = app.gh.comments.map((c) => c.body);
    expect(body).toContain('This month: $0.00 spent over 0 run(s), 0 verified (0%).');
    expect(body).toContain(
      "This month across acme's repositories (the installation's budget): $5.50 spent of $20.00 over 2 run(s), 1 verified (50%).",
    );
  });

  it("installation budget - without the setting, /agent status shows only the repository's month", async () => {
    await start(undefined);
    await app.receive('issue_comment', onGadgets('/agent status'), 'ib-5');
    const [body] = app.gh.comments.map((c) => c.body);
    expect(body).toContain('This month: $0.00 spent over 0 run(s)');
    expect(body).not.toContain('installation');
  });

  it('installation budget - a malformed setting is refused at start, naming the variable and the fix', () => {
    const base = { APP_ID: '1', PRIVATE_KEY: testPrivateKey(), WEBHOOK_SECRET: 's' };
    expect(() => readServerEnv({ ...base, PROOFPR_INSTALLATION_MONTHLY_USD: '$500' })).toThrow(
      /PROOFPR_INSTALLATION_MONTHLY_USD must be a number of US dollars \(e\.g\. 500\)/,
    );
    expect(() => readServerEnv({ ...base, PROOFPR_INSTALLATION_MONTHLY_USD: '0' })).toThrow(
      /PROOFPR_INSTALLATION_MONTHLY_USD must be more than 0: unset it for no installation budget/,
    );
    expect(readServerEnv({ ...base, PROOFPR_INSTALLATION_MONTHLY_USD: '250.5' }).installationMonthlyUsd).toBe(250.5);
    expect(readServerEnv(base).installationMonthlyUsd).toBeUndefined();
  });
});
