import { describe, it, expect, beforeEach } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { buildEvidence } from '../../src/agent/evidence/evidence.js';
import type { TestRun, Verdict } from '../../src/agent/events.js';
import type { PullRequestInfo } from '../../src/github/port.js';
import type { RunTaskInput, RunTaskResult } from '../../src/run/run-task-types.js';
import { runSweeps, selectSweeps, sweepExitCode, type SweepGitHub, type SweepOutcome } from '../../src/usecases/sweep.js';
import type { BaselineRunner } from '../../src/usecases/sweep-baseline.js';
import { createScriptedModel } from '../../src/model/scripted.js';
import { sweepCommand } from '../../src/hosts/cli/sweep-command.js';
import { UsageError } from '../../src/hosts/cli/usage-error.js';
import { git } from '../action/harness.js';
import { tempDir } from '../kit/temp.js';
import { openedPull } from '../fakes/opened-pull.js';

const NOW = new Date('2026-11-29T03:00:00Z');
const config = (extra = '') =>
  parseRepoConfig(
    `test:\n  command: node --test\nsweeps:\n  - name: deps\n    schedule: "0 3 * * 1"\n    prompt: "Update what is outdated."\n    labels: [maintenance]\n  - name: lint\n    schedule: "0 4 * * *"\n    prompt: Fix lint warnings.\n${extra}`,
  );

const run = (exitCode: number, failed: number): TestRun => ({
  command: 'node --test',
  exitCode,
  startedAt: NOW.toISOString(),
  endedAt: NOW.toISOString(),
  treeHash: 't',
  counts: { passed: 3, failed, skipped: 0, total: 3 + failed },
  source: 'summary-line',
  by: 'harness',
});
const greenBaseline: BaselineRunner = async () => ({ run: run(0, 0), baseSha: 'a'.repeat(40) });

interface Calls {
  runTask: RunTaskInput[];
  pushes: Array<{ branch: string; expectedRemoteSha?: string | null }>;
  created: Array<{ head: string; base: string; title: string; body: string }>;
  updated: Array<{ number: number; body?: string }>;
  labels: Array<{ issue: number; labels: string[] }>;
  checks: Array<{ headSha: string; conclusion: string; name: string }>;
}

function fakes(opts: { open?: PullRequestInfo[]; verdict?: Verdict; changed?: boolean; remoteSha?: string } = {}) {
  const calls: Calls = { runTask: [], pushes: [], created: [], updated: [], labels: [], checks: [] };
  const github: SweepGitHub = {
    owner: 'acme',
    repo: 'demo',
    listOpenPullRequests: async () => opts.open ?? [],
    findPullRequestByHead: async (branch) => (opts.open ?? []).find((p) => p.headRef === branch),
    createCheckRun: async (c) => void calls.checks.push({ headSha: c.headSha, conclusion: c.conclusion, name: c.name }),
    createPullRequest: async (pr) => {
      calls.created.push(pr);
      return openedPull(pr, 50);
    },
    updatePullRequest: async (number, patch) => void calls.updated.push({ number, ...patch }),
    addLabels: async (issue, labels) => void calls.labels.push({ issue, labels }),
    getBranchSha: async () => opts.remoteSha,
    gitAccess: async () => ({ url: 'https://example.test/acme/demo.git', token: 'ghs_x' }),
  };
  const workspace = {
    pushBranch: async (o: { branch: string; expectedRemoteSha?: string | null }) => {
      calls.pushes.push({ branch: o.branch, expectedRemoteSha: o.expectedRemoteSha });
      return { pushed: true, sha: 'c'.repeat(40) };
    },
  };
  const runTask = async (i: RunTaskInput): Promise<RunTaskResult> => {
    calls.runTask.push(i);
    const verdict = opts.verdict ?? 'verified';
    const changed = opts.changed ?? true;
    const evidence = buildEvidence([], {
      runId: i.runId,
      verdict,
      reason: verdict === 'verified' ? 'all gates passed' : 'tests-passed failed',
      task: { kind: 'sweep', title: i.task.title, sweep: i.task.sweep ?? '' },
      repo: { path: i.repoDir, baseSha: 'a'.repeat(40), branch: i.branch, ...(changed ? { headSha: 'c'.repeat(40) } : {}) },
      filesChanged: changed ? [{ path: 'src/x.js', added: 1, removed: 1 }] : [],
    });
    return {
      evidence,
      exitCode: verdict === 'verified' ? 0 : 3,
      runDir: i.runDir,
      branch: i.branch,
      ...(changed ? { headSha: 'c'.repeat(40) } : {}),
      wip: verdict !== 'verified' && changed,
      summaryMd: 'summary',
    };
  };
  return { calls, github, workspace, runTask };
}

let home: string;
beforeEach(() => {
  home = tempDir('proofpr-sweep-');
});
const input = (extra: Partial<Parameters<typeof runSweeps>[0]> = {}) => ({
  repoDir: '/repo',
  baseRef: 'HEAD',
  prBase: 'main',
  config: config(),
  modelId: 'm',
  home,
  ...extra,
});
const model = createScriptedModel([]);
const pr = (number: number, headRef: string): PullRequestInfo => openedPull({ head: headRef, base: 'main', draft: false }, number);

describe('selectSweeps', () => {
  it('sweep - a schedule event runs the sweeps with exactly that cron, and all sweeps when none matches', () => {
    expect(selectSweeps(config(), undefined, '0 4 * * *').map((s) => s.name)).toEqual(['lint']);
    expect(selectSweeps(config(), undefined, '0 0 * * *').map((s) => s.name)).toEqual(['deps', 'lint']);
  });
  it('sweep - an unknown --name and a config without sweeps are usage errors that say what exists', () => {
    expect(() => selectSweeps(config(), ['nope'])).toThrow('--name nope: no such sweep (configured: deps, lint)');
    expect(() => selectSweeps(parseRepoConfig(''))).toThrow(/sweeps: no sweep is configured/);
  });
});

describe('runSweeps', () => {
  it('sweep - opens a PR on proofpr/sweep-<name>-<yyyymmdd> with the config and sweep labels when none is open', async () => {
    const f = fakes();
    const [o] = await runSweeps(input({ names: ['deps'] }), { ...f, model, baseline: greenBaseline, now: () => NOW });
    expect(f.calls.runTask[0]).toMatchObject({
      branch: 'proofpr/sweep-deps-20261129',
      baseRef: 'HEAD',
      task: { kind: 'sweep', sweep: 'deps', body: 'Update what is outdated.' },
    });
    expect(f.calls.pushes).toEqual([{ branch: 'proofpr/sweep-deps-20261129', expectedRemoteSha: null }]);
    expect(f.calls.created[0]).toMatchObject({
      head: 'proofpr/sweep-deps-20261129',
      base: 'main',
      title: 'proofpr sweep deps: Update what is outdated.',
    });
    expect(f.calls.created[0]?.body).toContain('**Sweep:** deps (schedule `0 3 * * 1`)');
    expect(f.calls.labels).toEqual([{ issue: 50, labels: ['proofpr', 'maintenance'] }]);
    expect(o).toMatchObject({ verdict: 'verified', exitCode: 0, pr: { number: 50, created: true } });
    const evidence = JSON.parse(readFileSync(o?.evidencePath ?? '', 'utf8')) as { pr: unknown; baseline: unknown };
    expect(evidence).toMatchObject({ pr: { number: 50 }, baseline: { exitCode: 0 } });
    // The one way out: a sweep's verified commit gets the proofpr check run like every other publish.
    expect(f.calls.checks).toEqual([{ headSha: 'c'.repeat(40), conclusion: 'success', name: 'proofpr' }]);
  });

  it('sweep - reuses the newest open PR of the same sweep (force-with-lease on its branch) instead of opening another', async () => {
    const f = fakes({
      open: [
        pr(3, 'proofpr/sweep-deps-20261101'),
        pr(9, 'proofpr/sweep-deps-20261115'),
        pr(4, 'proofpr/sweep-lint-20261128'),
        pr(5, 'feature/deps'),
      ],
      remoteSha: 'b'.repeat(40),
    });
    const [o] = await runSweeps(input({ names: ['deps'] }), { ...f, model, baseline: greenBaseline, now: () => NOW });
    expect(f.calls.runTask[0]?.branch).toBe('proofpr/sweep-deps-20261115');
    expect(f.calls.pushes).toEqual([{ branch: 'proofpr/sweep-deps-20261115', expectedRemoteSha: 'b'.repeat(40) }]);
    expect(f.calls.created).toEqual([]);
    expect(f.calls.updated[0]).toMatchObject({ number: 9 });
    expect(o).toMatchObject({ pr: { number: 9, created: false } });
    expect(o?.reason).toMatch(/updated #9$/);
    expect(f.calls.labels).toEqual([{ issue: 9, labels: ['proofpr', 'maintenance'] }]);
    expect(f.calls.checks).toHaveLength(1);
  });

  it('sweep - with max_open_prs 0 does not run at all', async () => {
    const f = fakes();
    const cfg = parseRepoConfig('sweeps:\n  - name: deps\n    prompt: p\n    max_open_prs: 0\n');
    const [o] = await runSweeps(input({ config: cfg }), { ...f, model, baseline: greenBaseline });
    expect(o).toMatchObject({ verdict: 'skipped', exitCode: 0 });
    expect(f.calls.runTask).toEqual([]);
  });

  it('sweep - baseline: require_green - a red baseline stops the sweep before the agent: unverified, exit 3, the baseline in the evidence', async () => {
    const f = fakes();
    const [o] = await runSweeps(input({ names: ['lint'], config: config('    baseline: require_green\n') }), {
      ...f,
      model,
      baseline: async () => ({ run: run(1, 2), baseSha: 'd'.repeat(40) }),
    });
    expect(f.calls.runTask).toEqual([]);
    expect(o).toMatchObject({ verdict: 'unverified', exitCode: 3 });
    expect(o?.reason).toContain(
      'the tests already fail on the base before any change (`node --test` on the base dddddddddddd: exit 1, 5 executed, 2 failed)',
    );
    expect(o?.reason).toContain('baseline: require_green');
    const evidence = JSON.parse(readFileSync(o?.evidencePath ?? '', 'utf8')) as {
      verdict: string;
      task: unknown;
      baseline: { counts: { failed: number } };
    };
    expect(evidence).toMatchObject({ verdict: 'unverified', task: { kind: 'sweep', sweep: 'lint' }, baseline: { counts: { failed: 2 } } });
    expect(existsSync(join(o?.runDir ?? '', 'summary.md'))).toBe(true);
  });

  it('sweep - baseline: record (the default) - a red base is recorded and the sweep runs, its PR shows the red base', async () => {
    const f = fakes();
    const red = run(1, 2);
    const [o] = await runSweeps(input({ names: ['lint'] }), { ...f, model, baseline: async () => ({ run: red, baseSha: 'd'.repeat(40) }) });
    expect(f.calls.runTask).toHaveLength(1);
    expect(f.calls.runTask[0]?.baseline).toEqual(red);
    expect(o).toMatchObject({ verdict: 'verified', exitCode: 0, pr: { number: 50 } });
    expect(f.calls.created[0]?.body).toContain('red on the base, recorded (baseline: record)');
    const evidence = JSON.parse(readFileSync(o?.evidencePath ?? '', 'utf8')) as { baseline: { exitCode: number } };
    expect(evidence.baseline.exitCode).toBe(1);
  });

  it('sweep - a base that cannot be measured stops the sweep and the summary names the real cause', async () => {
    const f = fakes();
    const problem =
      "the baseline's setup failed: setup.command `npm ci` exited 1; fix it in .github/proofpr.yml. Last output:\nnpm ERR! network";
    const [o] = await runSweeps(input({ names: ['lint'] }), { ...f, model, baseline: async () => ({ baseSha: 'd'.repeat(40), problem }) });
    expect(f.calls.runTask).toEqual([]);
    expect(o).toMatchObject({ verdict: 'unverified', exitCode: 3 });
    expect(o?.reason).toContain('setup.command `npm ci` exited 1');
    expect(o?.reason).not.toContain('already fail');
    expect(readFileSync(join(o?.runDir ?? '', 'summary.md'), 'utf8')).toContain('setup.command');
  });

  it('sweep - unverified work is neither pushed nor proposed', async () => {
    const f = fakes({ verdict: 'unverified' });
    const [o] = await runSweeps(input({ names: ['deps'] }), { ...f, model, baseline: greenBaseline });
    expect(f.calls.pushes).toEqual([]);
    expect(f.calls.created).toEqual([]);
    expect(f.calls.checks).toEqual([]);
    expect(o).toMatchObject({ verdict: 'unverified', exitCode: 3 });
  });

  it('sweep - nothing to change opens nothing and leaves an open PR as it is', async () => {
    const f = fakes({ changed: false, open: [pr(9, 'proofpr/sweep-deps-20261115')] });
    const [o] = await runSweeps(input({ names: ['deps'] }), { ...f, model, baseline: greenBaseline });
    expect(f.calls.pushes).toEqual([]);
    expect(f.calls.created).toEqual([]);
    expect(f.calls.updated).toEqual([]);
    expect(o?.reason).toBe('nothing to change: no pull request opened (#9 left as it is)');
  });

  it('sweep - without a GitHub target the verified work stays committed on the branch', async () => {
    const f = fakes();
    const [o] = await runSweeps(input({ names: ['deps'] }), { runTask: f.runTask, model, baseline: greenBaseline, now: () => NOW });
    expect(o?.reason).toMatch(/committed on proofpr\/sweep-deps-20261129 \(no GitHub target: not pushed\)/);
    expect(o?.pr).toBeUndefined();
  });

  it('sweep - the exit code of several sweeps is the worst: internal error, then aborted, then unverified', () => {
    const o = (exitCode: number) => ({ exitCode }) as SweepOutcome;
    expect(sweepExitCode([o(0), o(3)])).toBe(3);
    expect(sweepExitCode([o(3), o(4), o(0)])).toBe(4);
    expect(sweepExitCode([o(4), o(1)])).toBe(1);
    expect(sweepExitCode([])).toBe(0);
  });
});

describe('proofpr sweep', () => {
  it('sweep command - runs the named sweep on a local repository and returns its exit code; an unknown name is a usage error', async () => {
    const repo = tempDir('proofpr-sweep-cli-');
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'init');
    const f = fakes({ verdict: 'unverified' });
    const cfg = join(repo, 'sweeps.yml');
    await import('node:fs').then((fs) => fs.writeFileSync(cfg, 'sweeps:\n  - name: deps\n    prompt: p\n'));
    const lines: string[] = [];
    const deps = {
      env: { PROOFPR_HOME: join(repo, '.state') },
      model,
      runTask: f.runTask,
      stderr: (s: string) => void lines.push(s),
      stdout: () => undefined,
    };
    expect(await sweepCommand({ name: 'deps', repo, config: cfg }, deps)).toBe(3);
    // Nothing to test with (no test.command, nothing detected): readiness stops it before the agent.
    expect(f.calls.runTask).toEqual([]);
    expect(lines.join('')).toMatch(/sweep deps: unverified.*set test\.command/);
    await expect(sweepCommand({ name: 'nope', repo, config: cfg }, deps)).rejects.toThrow(UsageError);
  });
});
