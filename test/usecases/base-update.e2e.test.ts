/**
 * The base update's two halves on real git: mergeIntoBranch (nothing to do, a clean base left alone unless
 * ci.auto_update, a conflict committed with its markers) and publishWork's fast-forward lease (a branch that
 * moved since the run started is never pushed over; the push carries no lease flag, so git's own
 * fast-forward rule holds).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { join } from 'node:path';
import { mergeIntoBranch } from '../../src/workspace/merge-into-branch.js';
import { publishWork, type PublishGitHub } from '../../src/usecases/publish-work.js';
import { pushBranch } from '../../src/workspace/push.js';
import { makeRemote, sh, type Remote } from '../workspace/git-fixtures.js';
import { evidence } from '../hosts/probot/harness.js';

const BRANCH = 'proofpr/7-x';
const identity = { name: 'proofpr[bot]', email: 'proofpr[bot]@users.noreply.github.com' };
let remote: Remote;
let mirror: string;

beforeEach(() => {
  remote = makeRemote({ 'a.txt': 'one\n', 'b.txt': 'two\n' });
  mirror = join(remote.root, 'mirror.git');
});
afterEach(() => remote.cleanup());

const fetchMirror = (): void => {
  sh(remote.root, 'clone', '-q', '--bare', remote.bare, mirror);
  sh(mirror, 'fetch', '-q', 'origin', '+refs/heads/*:refs/remotes/origin/*');
};

describe('base update - merging the base into the PR branch', () => {
  it('base update - up to date, a clean base left alone, a clean base merged with always, a conflict committed with markers', async () => {
    const tip = remote.commit(BRANCH, { 'a.txt': 'branch\n' });
    fetchMirror();
    const m = { repoDir: mirror, branch: BRANCH, tipSha: tip, base: 'main', identity };
    expect(await mergeIntoBranch({ ...m, always: true })).toMatchObject({ kind: 'up-to-date' });

    remote.commit('main', { 'b.txt': 'moved\n' });
    sh(mirror, 'fetch', '-q', 'origin', '+refs/heads/*:refs/remotes/origin/*');
    expect(await mergeIntoBranch({ ...m, always: false })).toMatchObject({ kind: 'clean-not-merged' });
    const clean = await mergeIntoBranch({ ...m, always: true });
    expect(clean).toMatchObject({ kind: 'merged', conflicts: [] });
    expect(sh(mirror, 'show', `refs/heads/${BRANCH}:b.txt`)).toBe('moved');

    remote.commit('main', { 'a.txt': 'main\n' });
    sh(mirror, 'fetch', '-q', 'origin', '+refs/heads/*:refs/remotes/origin/*');
    const conflict = await mergeIntoBranch({ ...m, always: false });
    expect(conflict).toMatchObject({ kind: 'merged', conflicts: ['a.txt'] });
    expect(sh(mirror, 'show', `refs/heads/${BRANCH}:a.txt`)).toMatch(/^<<<<<<< [^\n]+\nbranch\n=======\nmain\n>>>>>>> /);
    expect(sh(mirror, 'log', '-1', '--format=%P', `refs/heads/${BRANCH}`).split(' ')).toEqual([tip, remote.sha('main')]);
  });

  it('base update - the fast-forward lease: a PR branch that moved since the run started is not pushed over', async () => {
    const tip = remote.commit(BRANCH, { 'a.txt': 'branch\n' });
    fetchMirror();
    remote.commit('main', { 'a.txt': 'main\n' });
    sh(mirror, 'fetch', '-q', 'origin', '+refs/heads/*:refs/remotes/origin/*');
    const merged = await mergeIntoBranch({ repoDir: mirror, branch: BRANCH, tipSha: tip, base: 'main', always: false, identity });
    if (merged.kind !== 'merged') throw new Error('expected a merge');
    const someone = remote.commit(BRANCH, { 'c.txt': 'pushed meanwhile\n' });
    const pushes: unknown[] = [];
    const github = {
      owner: 'acme',
      repo: 'widgets',
      gitAccess: async () => ({ url: remote.url, token: 'ghs_x' }),
      getBranchSha: async () => remote.sha(`refs/heads/${BRANCH}`),
    } as unknown as PublishGitHub;
    const runDir = join(remote.root, 'run');
    const result = { evidence: evidence('verified'), exitCode: 0, runDir, branch: BRANCH, headSha: merged.sha, wip: false, summaryMd: '' };
    await expect(
      publishWork(
        {
          runId: 'r1',
          repoDir: mirror,
          branch: BRANCH,
          result,
          lease: { kind: 'fast-forward', sha: tip },
          pr: { kind: 'existing', number: 1, url: 'u', body: '' },
          unverified: 'wip-ref',
        },
        { github, workspace: { pushBranch: async (o) => (pushes.push(o), pushBranch(o)) } },
      ),
    ).rejects.toThrow(/moved on the remote/);
    expect(pushes).toEqual([]);
    expect(remote.sha(`refs/heads/${BRANCH}`)).toBe(someone);
  });
});
