/**
 * The one way out (issues 23 and 24), against a real bare repository as the remote: an App run that ends
 * unverified pushes no branch, its work is under refs/proofpr/wip/<run-id> (fetchable with the command the
 * comments name); the Action's direct task gets the remote-sha lease, the check run and evidence.pr.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import type { RunTask, RunTaskResult } from '../../src/run/run-task-types.js';
import type { PushBranchOptions } from '../../src/workspace/push.js';
import { pushBranch } from '../../src/workspace/push.js';
import type { WorkspacePort } from '../../src/usecases/ports.js';
import type { PublishGitHub } from '../../src/usecases/publish-work.js';
import { runPromptTask } from '../../src/usecases/prompt-task.js';
import { promptBranch } from '../../src/usecases/branch-name.js';
import { promptFlow } from '../../src/hosts/action/prompt-flow.js';
import { createScriptedModel } from '../../src/model/scripted.js';
import { payload } from '../github/payloads.js';
import { evidence, fakeRunTask, useAppHarness } from '../hosts/probot/harness.js';
import { makeRemote, sh, type Remote } from '../workspace/git-fixtures.js';
import { openedPull } from '../fakes/opened-pull.js';

let remote: Remote;
let clone: string;

beforeEach(() => {
  remote = makeRemote();
  clone = join(remote.root, 'mirror');
  sh(remote.root, 'clone', '-q', remote.bare, clone);
});
afterEach(() => remote.cleanup());

/** A commit of the run's work in the mirror (on no branch, as the run leaves it for the push by sha). */
function runCommit(file = 'fix.txt'): string {
  sh(clone, 'checkout', '-q', '--detach', 'origin/main');
  writeFileSync(join(clone, file), `work ${Math.random()}\n`);
  sh(clone, 'add', '-A');
  sh(clone, 'commit', '-q', '-m', 'work');
  return sh(clone, 'rev-parse', 'HEAD');
}

/** Every ref of the remote. */
const remoteRefs = (): string[] => sh(remote.bare, 'for-each-ref', '--format=%(refname)').split('\n').filter(Boolean);

/** The mirror is the clone; pushes really go to the bare remote (whatever URL GitHub gave), and are recorded. */
function realWorkspace(): WorkspacePort & { pushes: Array<Omit<PushBranchOptions, 'logger'>> } {
  const pushes: Array<Omit<PushBranchOptions, 'logger'>> = [];
  return {
    pushes,
    ensureMirror: async () => ({ dir: clone }),
    pushBranch: async (o) => {
      pushes.push(o);
      return pushBranch({ ...o, remoteUrl: remote.url });
    },
  };
}

/** The fetch command a comment names, run in a fresh clone: the WIP commit must arrive under the local branch it names. */
function fetchAsTold(text: string): { branch: string; sha: string } {
  const m = /git fetch origin (refs\/proofpr\/wip\/[\w.-]+):(proofpr-wip-[\w.-]+)/.exec(text);
  if (!m?.[1] || !m[2]) throw new Error(`no fetch command in:\n${text}`);
  const other = join(remote.root, `other-${Math.random().toString(36).slice(2)}`);
  sh(remote.root, 'clone', '-q', remote.bare, other);
  sh(other, 'fetch', '-q', 'origin', `${m[1]}:${m[2]}`);
  return { branch: m[2], sha: sh(other, 'rev-parse', m[2]) };
}

describe('publish - an App run that ends unverified', () => {
  const app = useAppHarness();

  it('publish - an unverified App run pushes no branch; its WIP ref is on the remote, fetchable with the command the comments name', async () => {
    const sha = runCommit();
    const fake = fakeRunTask({ verdict: 'unverified', wip: true, headSha: sha });
    await app.start({
      github: { permissions: { maintainer: { permission: 'write', role_name: 'write' } } },
      runTask: fake.runTask,
      workspace: realWorkspace(),
    });
    const gh = app.gh;
    const event = payload('issue_comment.created', (p) => void (p.comment.body = '/agent fix'));
    await app.receive('issue_comment', event, 'wip-1');
    await app.done(12);

    const runId = fake.inputs[0]?.runId ?? '';
    const wipRef = `refs/proofpr/wip/${runId}`;
    expect(remoteRefs()).toEqual(['refs/heads/main', wipRef]);
    expect(remote.sha(wipRef)).toBe(sha);
    expect(gh.calledWith('POST', /\/pulls$/)).toEqual([]);
    expect(gh.checkRuns).toEqual([]);

    const report = gh.comments.map((c) => c.body).find((b) => b.startsWith('proofpr could not verify')) ?? '';
    expect(report).toContain(`\`${wipRef}\``);
    expect(fetchAsTold(report)).toEqual({ branch: `proofpr-wip-${runId}`, sha });
    const status = gh.comments.find((c) => c.body.includes('proofpr:run='));
    expect(fetchAsTold(gh.commentBody(status?.id ?? 0)).sha).toBe(sha);

    const written = JSON.parse(readFileSync(join(fake.inputs[0]?.runDir ?? '', 'evidence.json'), 'utf8')) as { wipRef?: string };
    expect(written.wipRef).toBe(wipRef);
  });
});

/** GitHub as the direct task's publish step sees it: every write recorded; the branch tip read from the real remote. */
function recordingGitHub(opts: { staleTip?: string } = {}) {
  const calls = {
    prs: [] as Array<{ head: string; base: string; title: string; draft: boolean }>,
    labels: [] as Array<{ issue: number; labels: string[] }>,
    checks: [] as Array<{ headSha: string; conclusion: string; name: string }>,
  };
  const github: PublishGitHub & { getDefaultBranch(): Promise<string> } = {
    owner: 'acme',
    repo: 'demo',
    gitAccess: async () => ({ url: 'https://example.test/acme/demo.git', token: 'ghs_fakeActionToken0123456789abcdef' }),
    getBranchSha: async (branch) => {
      if (opts.staleTip) return opts.staleTip;
      const tip = sh(remote.bare, 'for-each-ref', '--format=%(objectname)', `refs/heads/${branch}`);
      return tip || undefined;
    },
    getDefaultBranch: async () => 'main',
    findPullRequestByHead: async () => undefined,
    createPullRequest: async (pr) => {
      calls.prs.push(pr);
      return openedPull(pr, 7);
    },
    updatePullRequest: async () => undefined,
    addLabels: async (issue, labels) => void calls.labels.push({ issue, labels }),
    createCheckRun: async (c) => void calls.checks.push({ headSha: c.headSha, conclusion: c.conclusion, name: c.name }),
  };
  return { github, calls };
}

/** A run that committed `sha` with the given verdict, its folder written as runTask writes it. */
function runTaskWith(verdict: 'verified' | 'unverified', sha: string): RunTask {
  return async (i): Promise<RunTaskResult> => {
    const ev = evidence(verdict, { runId: i.runId, task: { kind: 'prompt', title: i.task.title } });
    return {
      evidence: ev,
      exitCode: verdict === 'verified' ? 0 : 3,
      runDir: i.runDir,
      branch: i.branch,
      headSha: sha,
      wip: verdict !== 'verified',
      summaryMd: `## proofpr: ${verdict}\n`,
    };
  };
}

const config = parseRepoConfig('pr:\n  labels: [proofpr, bot]\n');
const PROMPT = 'Make median() sort numerically';
const RUN_ID = '20261201-230000-0a1b2c3d';

describe('publish - the Action direct task', () => {
  it('publish - a verified direct task pushes its branch with the remote-sha lease, opens the PR with labels, writes evidence.pr, posts the check run', async () => {
    const sha = runCommit();
    const ws = realWorkspace();
    const { github, calls } = recordingGitHub();
    const home = join(remote.root, 'home');
    const out = await runPromptTask(
      { prompt: PROMPT, config, repoDir: clone, home, modelId: 'm', runId: RUN_ID },
      { github, workspace: ws, model: createScriptedModel([]), runTask: runTaskWith('verified', sha) },
    );
    const branch = promptBranch(PROMPT, RUN_ID);
    expect(out.branch).toBe(branch);
    expect(ws.pushes).toEqual([expect.objectContaining({ branch, sha, ownBranch: true, expectedRemoteSha: null })]);
    expect(remote.sha(`refs/heads/${branch}`)).toBe(sha);
    expect(calls.prs).toEqual([expect.objectContaining({ head: branch, base: 'main', title: PROMPT, draft: false })]);
    expect(calls.labels).toEqual([{ issue: 7, labels: ['proofpr', 'bot'] }]);
    expect(calls.checks).toEqual([{ headSha: sha, conclusion: 'success', name: 'proofpr' }]);
    const written = JSON.parse(readFileSync(join(home, 'runs', RUN_ID, 'evidence.json'), 'utf8')) as { pr?: unknown };
    expect(written.pr).toEqual({ number: 7, url: 'https://example.test/acme/demo/pull/7' });
  });

  it('publish - the direct task leases the tip it read: a branch that moved on the remote meanwhile is not overwritten', async () => {
    const branch = promptBranch(PROMPT, RUN_ID);
    const old = remote.commit(branch, { 'a.txt': 'first\n' });
    remote.commit(branch, { 'a.txt': 'someone else\n' });
    const sha = runCommit();
    const { github, calls } = recordingGitHub({ staleTip: old });
    await expect(
      runPromptTask(
        { prompt: PROMPT, config, repoDir: clone, home: join(remote.root, 'home'), modelId: 'm', runId: RUN_ID },
        { github, workspace: realWorkspace(), model: createScriptedModel([]), runTask: runTaskWith('verified', sha) },
      ),
    ).rejects.toThrow(/moved on the remote/);
    expect(remote.sha(`refs/heads/${branch}`)).not.toBe(sha);
    expect(calls.prs).toEqual([]);
    expect(calls.checks).toEqual([]);
  });

  it('publish - an unverified direct task pushes no branch: the WIP ref, named with its fetch command in the job summary; no PR, no check run', async () => {
    const sha = runCommit();
    const { github, calls } = recordingGitHub();
    const home = join(remote.root, 'home');
    const deps = { github, workspace: realWorkspace(), model: createScriptedModel([]), runTask: runTaskWith('unverified', sha) };
    const ctx = {
      eventName: 'workflow_dispatch',
      payload: {},
      owner: 'acme',
      repo: 'demo',
      workspace: clone,
      apiUrl: '',
      serverUrl: '',
      runKey: '1',
      home,
    };
    const r = await promptFlow(ctx, config, PROMPT, { ...deps, modelId: 'm', evidencePath: (p) => p });
    expect(r.outputs).toMatchObject({ verdict: 'unverified', branch: '', pr_number: '', pr_url: '' });
    const wip = remoteRefs().filter((ref) => ref.startsWith('refs/proofpr/wip/'));
    expect(remoteRefs().filter((ref) => ref.startsWith('refs/heads/'))).toEqual(['refs/heads/main']);
    expect(wip).toHaveLength(1);
    expect(remote.sha(wip[0] ?? '')).toBe(sha);
    expect(fetchAsTold(r.summaryMd).sha).toBe(sha);
    expect(calls.prs).toEqual([]);
    expect(calls.checks).toEqual([]);
    const evidencePath = r.outputs.evidence_path ?? '';
    expect(existsSync(evidencePath)).toBe(true);
    expect((JSON.parse(readFileSync(evidencePath, 'utf8')) as { wipRef?: string }).wipRef).toBe(wip[0]);
    expect(readFileSync(join(evidencePath, '..', 'summary.md'), 'utf8')).toContain(`git fetch origin ${wip[0] ?? ''}:`);
  });
});
