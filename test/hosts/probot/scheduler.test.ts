import { describe, it, expect, beforeEach, afterEach, afterAll } from '@jest/globals';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { Probot } from 'probot';
import { silentLogger } from '../../../src/log.js';
import { startSweepScheduler, fireTimes, type SweepScheduler } from '../../../src/hosts/probot/scheduler.js';
import { createJobHandler } from '../../../src/jobs/worker.js';
import type { ProofprJob, SweepJob } from '../../../src/jobs/fix-job.js';
import type { Queue } from '../../../src/jobs/queue.js';
import type { GitHubPort } from '../../../src/github/port.js';
import { fakeModel, fakeRunTask, fakeWorkspace, startHarness, testPrivateKey, TestOctokit } from './harness.js';
import { createProofpr } from '../../../src/hosts/probot/create-proofpr.js';
import { tempDir } from '../../kit/temp.js';

const API = 'https://api.github.com';
const SWEEP_CONFIG = 'sweeps:\n  - name: deps\n    schedule: "0 3 * * *"\n    prompt: Update the lockfile.\n';

function fakeQueue(): Pick<Queue<ProofprJob>, 'enqueue'> & { jobs: Array<{ runId: string; data: ProofprJob; key: string }> } {
  const jobs: Array<{ runId: string; data: ProofprJob; key: string }> = [];
  return {
    jobs,
    async enqueue(job, opts) {
      const seen = jobs.findIndex((j) => j.key === opts.dedupeKey);
      if (seen >= 0) return { id: String(seen), deduped: true };
      jobs.push({ ...job, key: opts.dedupeKey });
      return { id: String(jobs.length - 1), deduped: false };
    },
  };
}

/** GitHub for one installation (7) with two repositories: acme/widgets (a scheduled sweep) and acme/broken (invalid config). */
function playGitHub(configs: Record<string, string>, onRead?: () => void): void {
  nock(API)
    .persist()
    .get('/app/installations')
    .query(true)
    .reply(200, [{ id: 7, account: { login: 'acme' } }])
    .post('/app/installations/7/access_tokens')
    .reply(201, {
      token: 'ghs_fakeinstallationtoken000000000000000',
      expires_at: new Date(Date.now() + 3600_000).toISOString(),
      permissions: {},
    })
    .get('/installation/repositories')
    .query(true)
    .reply(200, {
      total_count: 2,
      repositories: Object.keys(configs).map((name) => ({ name, full_name: `acme/${name}`, owner: { login: 'acme' } })),
    })
    // A push also asks for the open PRs onto the moved branch (ci.auto_update): none here.
    .get(/^\/repos\/acme\/[^/]+\/pulls/)
    .query(true)
    .reply(200, [])
    .get(/^\/repos\/acme\/[^/]+\/contents\/.*proofpr\.yml/)
    .reply((uri) => {
      onRead?.();
      const name = /^\/repos\/acme\/([^/]+)\//.exec(uri)?.[1] ?? '';
      const text = configs[name];
      return text === undefined ? [404, { message: 'Not Found' }] : [200, text, { 'content-type': 'text/plain; charset=utf-8' }];
    });
}

describe('sweep scheduler', () => {
  let scheduler: SweepScheduler | undefined;
  beforeEach(() => nock.disableNetConnect());
  afterEach(() => {
    scheduler?.stop();
    nock.cleanAll();
    nock.enableNetConnect();
  });

  const start = (queue: ReturnType<typeof fakeQueue>) => {
    const probot = new Probot({ appId: 1, privateKey: testPrivateKey(), Octokit: TestOctokit, log: silentLogger });
    scheduler = startSweepScheduler({ probot, queue, intervalMs: 60_000, logger: silentLogger });
    return scheduler;
  };

  it('scheduler - enqueues a sweep once for the slot its cron fired in, and skips an invalid config', async () => {
    playGitHub({ widgets: SWEEP_CONFIG, broken: `${SWEEP_CONFIG}max_turns: lots\n` });
    const queue = fakeQueue();
    const s = start(queue);
    await s.tick(new Date('2026-03-01T03:00:30Z'));
    expect(queue.jobs).toHaveLength(1);
    const job = queue.jobs[0]!;
    expect(job.key).toBe('sweep:acme/widgets:deps:2026-03-01T03:00');
    expect(job.data).toMatchObject({ kind: 'sweep', owner: 'acme', repo: 'widgets', installationId: 7, sweep: 'deps', runId: job.runId });

    await s.tick(new Date('2026-03-01T03:01:30Z'));
    expect(queue.jobs).toHaveLength(1);
  });

  it('scheduler - reads each config once per TTL, not every tick; invalidate() forces a fresh read', async () => {
    let reads = 0;
    playGitHub({ widgets: SWEEP_CONFIG }, () => reads++);
    const s = start(fakeQueue());
    for (let m = 0; m < 5; m++) await s.tick(new Date(Date.UTC(2026, 2, 1, 4, m)));
    expect(reads).toBe(1);
    await s.tick(new Date('2026-03-01T04:20:00Z'));
    expect(reads).toBe(2);
    s.invalidate('acme/widgets');
    await s.tick(new Date('2026-03-01T04:21:00Z'));
    expect(reads).toBe(3);
  });

  it('scheduler - enqueues nothing when the window does not contain a fire time', async () => {
    playGitHub({ widgets: SWEEP_CONFIG });
    const queue = fakeQueue();
    const s = start(queue);
    await s.tick(new Date('2026-03-01T04:10:00Z'));
    await s.tick(new Date('2026-03-01T04:11:00Z'));
    expect(queue.jobs).toHaveLength(0);
  });

  it('scheduler - two servers ticking the same slot enqueue it once (the dedupe key names the slot)', async () => {
    playGitHub({ widgets: SWEEP_CONFIG });
    const queue = fakeQueue();
    await start(queue).tick(new Date('2026-03-01T03:00:10Z'));
    scheduler?.stop();
    await start(queue).tick(new Date('2026-03-01T03:00:50Z'));
    expect(queue.jobs.map((j) => j.key)).toEqual(['sweep:acme/widgets:deps:2026-03-01T03:00']);
  });

  it('scheduler - a GitHub failure is logged, not thrown', async () => {
    nock(API).get('/app/installations').query(true).reply(500, { message: 'Server Error' });
    const queue = fakeQueue();
    await expect(start(queue).tick(new Date('2026-03-01T03:00:30Z'))).resolves.toBeUndefined();
    expect(queue.jobs).toHaveLength(0);
  });

  it('fireTimes - lists the fire times in (from, to] in UTC', () => {
    expect(fireTimes('0 3 * * *', new Date('2026-03-01T03:00:00Z'), new Date('2026-03-02T03:00:00Z')).map((d) => d.toISOString())).toEqual([
      '2026-03-02T03:00:00.000Z',
    ]);
  });
});

describe('job handler - sweep jobs', () => {
  let home: string;
  beforeEach(() => {
    home = tempDir('proofpr-sweepjob-');
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('worker - a sweep job refreshes the mirror and runs that sweep on the default branch', async () => {
    const { runTask, inputs } = fakeRunTask();
    const workspace = fakeWorkspace();
    const port = {
      owner: 'acme',
      repo: 'widgets',
      getDefaultBranch: async () => 'trunk',
      readConfig: async () => ({
        sweeps: [
          { name: 'deps', schedule: '0 3 * * *', prompt: 'Update the lockfile.' },
          { name: 'docs', prompt: 'Fix typos.' },
        ],
      }),
      gitAccess: async () => ({ url: 'https://github.com/acme/widgets.git', token: 'ghs_x' }),
      listOpenPullRequests: async () => [],
    } as unknown as GitHubPort;
    const asked: unknown[] = [];
    const handler = createJobHandler({
      githubFor: async (t) => {
        asked.push(t);
        return port;
      },
      workspace,
      runTask,
      modelFactory: () => fakeModel,
      runs: { update: () => undefined },
      home,
      baseline: async () => ({
        baseSha: 'a'.repeat(40),
        run: {
          command: 'npm test',
          exitCode: 0,
          startedAt: '',
          endedAt: '',
          treeHash: 't',
          counts: { passed: 1, failed: 0, skipped: 0, total: 1 },
          source: 'summary-line',
          by: 'harness',
        },
      }),
    });
    const data: SweepJob = { kind: 'sweep', owner: 'acme', repo: 'widgets', installationId: 7, sweep: 'deps', runId: 'r1' };
    const progress: unknown[] = [];
    await handler({ id: '1', runId: 'r1', data, attempt: 1 }, { signal: new AbortController().signal, progress: (p) => progress.push(p) });
    expect(asked).toEqual([{ owner: 'acme', repo: 'widgets', installationId: 7 }]);
    expect(workspace.mirrors).toEqual([{ home, url: 'https://github.com/acme/widgets.git', token: 'ghs_x' }]);
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).toMatchObject({
      repoDir: join(home, 'mirrors', 'acme', 'widgets.git'),
      baseRef: 'trunk',
      task: { kind: 'sweep', sweep: 'deps' },
      repoFullName: 'acme/widgets',
    });
    expect(progress.at(-1)).toMatchObject({ phase: 'done' });
  });
});

describe('serve - sweep scheduler wiring', () => {
  afterEach(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });

  const push = (
    ref: string,
    files: { added?: string[]; modified?: string[]; removed?: string[] },
    extra: Record<string, unknown> = {},
  ) => ({
    name: 'push' as const,
    id: `push-${Math.random()}`,
    payload: {
      ref,
      before: 'a'.repeat(40),
      after: 'b'.repeat(40),
      forced: false,
      deleted: false,
      repository: { name: 'widgets', full_name: 'acme/widgets', owner: { login: 'acme' }, default_branch: 'main' },
      installation: { id: 7 },
      commits: [{ id: 'b'.repeat(40), added: [], modified: [], removed: [], ...files }],
      head_commit: { id: 'b'.repeat(40), added: [], modified: [], removed: [], ...files },
      ...extra,
    },
  });

  it('serve - a push to the default branch that changes .github/proofpr.yml invalidates the cached config: the next tick reads it (the new sweep fires)', async () => {
    nock.disableNetConnect();
    const configs: Record<string, string> = { widgets: SWEEP_CONFIG };
    let reads = 0;
    playGitHub(configs, () => reads++);
    const h = await startHarness(fakeRunTask().runTask, fakeWorkspace());
    try {
      const s = h.app.scheduler!;
      await s.tick(new Date('2026-03-01T04:00:00Z'));
      expect(reads).toBe(1);
      // Not the config, or not the default branch: the cache stays.
      await h.app.probot.receive(push('refs/heads/main', { modified: ['src/a.ts'] }) as never);
      await h.app.probot.receive(push('refs/heads/feature', { modified: ['.github/proofpr.yml'] }) as never);
      await s.tick(new Date('2026-03-01T04:01:00Z'));
      expect(reads).toBe(1);
      // The maintainer adds an hourly sweep on main: the next tick sees it, well within the 15 min TTL.
      configs.widgets = `${SWEEP_CONFIG}  - name: hourly\n    schedule: "5 * * * *"\n    prompt: Tidy up.\n`;
      await h.app.probot.receive(push('refs/heads/main', { modified: ['.github/proofpr.yml'] }) as never);
      const queued: string[] = [];
      const enqueue = h.app.queue.enqueue.bind(h.app.queue);
      h.app.queue.enqueue = async (job, opts) => (queued.push(opts.dedupeKey), enqueue(job, opts));
      await s.tick(new Date('2026-03-01T04:05:00Z'));
      expect(reads).toBe(2);
      expect(queued).toEqual(['sweep:acme/widgets:hourly:2026-03-01T04:05']);
      // Removing the file counts too; a push whose commit list may be incomplete (forced) invalidates as well.
      await h.app.probot.receive(push('refs/heads/main', { removed: ['.github/proofpr.yml'] }) as never);
      await s.tick(new Date('2026-03-01T04:06:00Z'));
      expect(reads).toBe(3);
      await h.app.probot.receive(push('refs/heads/main', { modified: ['README.md'] }, { forced: true }) as never);
      await s.tick(new Date('2026-03-01T04:07:00Z'));
      expect(reads).toBe(4);
    } finally {
      await h.close();
    }
  });

  it('serve - starts the sweep scheduler, unless PROOFPR_SWEEP_SCHEDULER=off', async () => {
    const h = await startHarness(fakeRunTask().runTask, fakeWorkspace());
    expect(h.app.scheduler).toBeDefined();
    await h.close();
    const home = tempDir('proofpr-sched-off-');
    const app = await createProofpr({
      env: { APP_ID: '1', PRIVATE_KEY: testPrivateKey(), WEBHOOK_SECRET: 's', PROOFPR_HOME: home, PROOFPR_SWEEP_SCHEDULER: 'off' },
      runTask: fakeRunTask().runTask,
      workspace: fakeWorkspace(),
      modelFactory: () => fakeModel,
      Octokit: TestOctokit,
      probotLog: silentLogger,
    });
    expect(app.scheduler).toBeUndefined();
    await app.close();
    rmSync(home, { recursive: true, force: true });
  });
});

// Leave no interceptor behind for the next test file in this worker (it may talk to a local server).
afterAll(() => {
  nock.enableNetConnect();
  nock.restore();
});
