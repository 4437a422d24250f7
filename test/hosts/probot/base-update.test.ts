/**
 * A PR that sees itself through (issue 28): the base branch moved and conflicts with proofpr's PR; `/agent
 * fix` on the PR merges the base into the branch in the mirror, the conflict markers are the agent's task
 * (the real runTask with a scripted model on real git repositories), the result is re-verified, and the push
 * goes through the one publish step as a fast-forward of the PR's old tip: no force of any kind.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nock from 'nock';
import { fakeGitHub, type FakeGitHub } from '../../fakes/github/nock.js';
import { payload } from '../../github/payloads.js';
import { startHarnessWith, until, type Harness } from '../../memory/harness.js';
import { makeRemote, sh, type Remote } from '../../workspace/git-fixtures.js';
import { createScriptedModel, text, toolUse, type ScriptStep } from '../../../src/model/scripted.js';
import type { RunStore } from '../../../src/jobs/run-store.js';
import type { WorkspacePort } from '../../../src/usecases/ports.js';
import type { PushBranchOptions } from '../../../src/workspace/push.js';
import { runTask } from '../../../src/run/run-task.js';
import { ensureMirror } from '../../../src/workspace/mirror.js';
import { pushBranch } from '../../../src/workspace/push.js';
import { changedPaths } from '../../../src/workspace/changed-paths.js';
import { mergeIntoBranch } from '../../../src/workspace/merge-into-branch.js';

const REPO = 'acme/widgets';
const BRANCH = 'proofpr/12-parser-drops-the-last-line';
const DEMO = join(process.cwd(), 'examples/demo/repo');
const demo = (p: string): string => readFileSync(join(DEMO, p), 'utf8');
const CONFIG = `${demo('.github/proofpr.yml')}ci:\n  wait_min: 0\n`;
const SORT = '  const sorted = [...values].sort();\n';
const STATS = demo('src/stats.js');
const ON_BRANCH = STATS.replace(SORT, '  const sorted = [...values].sort((a, b) => a - b);\n');
const ON_MAIN = STATS.replace(SORT, '  const sorted = values.slice().sort(); // a copy: the caller’s list keeps its order\n');
const RESOLVED = STATS.replace(
  SORT,
  '  const sorted = values.slice().sort((a, b) => a - b); // a copy: the caller’s list keeps its order\n',
);

let remote: Remote;
beforeEach(() => {
  nock.disableNetConnect();
  remote = makeRemote({
    'README.md': demo('README.md'),
    'package.json': demo('package.json'),
    'src/stats.js': STATS,
    'test/stats.test.js': demo('test/stats.test.js'),
  });
});
afterEach(() => {
  remote.cleanup();
  nock.cleanAll();
  nock.enableNetConnect();
});
afterAll(() => nock.restore());

/** The real mirror and push, against the bare remote whatever URL GitHub named; pushes recorded. */
function realWorkspace(): WorkspacePort & { pushes: Array<Omit<PushBranchOptions, 'logger'>> } {
  const pushes: Array<Omit<PushBranchOptions, 'logger'>> = [];
  return {
    pushes,
    ensureMirror: (o) => ensureMirror({ ...o, url: remote.url }),
    pushBranch: async (o) => {
      pushes.push(o);
      return pushBranch({ ...o, remoteUrl: remote.url });
    },
    changedPaths,
    mergeIntoBranch,
  };
}

/** The agent: reads the conflicted file, writes both sides' intent, runs the tests, stops. */
function resolvingModel() {
  const steps: ScriptStep[] = [
    { content: [toolUse('Read', { file_path: 'src/stats.js' })] },
    { content: [toolUse('Write', { file_path: 'src/stats.js', content: RESOLVED })] },
    { content: [toolUse('Bash', { command: 'node --test' })] },
  ];
  return createScriptedModel((_req, turn) => steps[turn - 1] ?? { content: [text('Resolved the conflict; the tests pass.')] });
}

describe('probot app - a PR that sees itself through', () => {
  let gh: FakeGitHub;
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('base update - a conflicting base is merged and re-verified with a fast-forward push', async () => {
    const oldTip = remote.commit(BRANCH, { 'src/stats.js': ON_BRANCH }, 'Fix median sorting');
    const baseTip = remote.commit('main', { 'src/stats.js': ON_MAIN }, 'Do not reorder the caller’s list');
    gh = fakeGitHub({
      permissions: { maintainer: { permission: 'write', role_name: 'write' } },
      config: CONFIG,
      bareDir: remote.bare,
      pulls: [{ number: 13, head: BRANCH, base: 'main', state: 'open', author: 'proofpr[bot]' }],
    });
    const model = resolvingModel();
    const ws = realWorkspace();
    h = await startHarnessWith({ runTask, workspace: ws, modelFactory: () => model });
    const ev = payload('pull_request_review_comment.created', (p) => (p.comment.body = '/agent fix'));
    await h.app.probot.receive({ id: 'bu-1', name: 'pull_request_review_comment', payload: ev } as never);
    await until(() => (h?.app.runs as RunStore).latest(REPO, 13)?.status === 'done', 90_000);

    // The task named the conflict; the agent saw the markers in the file.
    const task = (model.requests[0]?.system ?? []).map((b) => b.text).join('\n');
    expect(task).toContain('conflicts with this pull request');
    expect(task).toContain('- src/stats.js');
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('<<<<<<<');
    expect((h.app.runs as RunStore).latest(REPO, 13)?.verdict).toBe('verified');

    // One push: a plain one (no lease, no force), of a commit that descends from the old tip and the base.
    expect(ws.pushes).toHaveLength(1);
    expect(ws.pushes[0]).toMatchObject({ branch: BRANCH, ownBranch: false });
    expect(ws.pushes[0]?.expectedRemoteSha).toBeUndefined();
    const newTip = remote.sha(`refs/heads/${BRANCH}`);
    expect(newTip).toBe(ws.pushes[0]?.sha);
    expect(sh(remote.bare, 'merge-base', '--is-ancestor', oldTip, newTip)).toBe('');
    expect(sh(remote.bare, 'merge-base', '--is-ancestor', baseTip, newTip)).toBe('');
    expect(sh(remote.bare, 'show', `${newTip}:src/stats.js`)).toBe(RESOLVED.trimEnd());
    // The merge commit keeps both parents; the resolution is the verified commit on top of it.
    const merge = sh(remote.bare, 'rev-parse', `${newTip}^`);
    expect(sh(remote.bare, 'rev-parse', `${merge}^1`, `${merge}^2`).split('\n')).toEqual([oldTip, baseTip]);
    expect(gh.checkRuns).toEqual([expect.objectContaining({ head_sha: newTip, conclusion: 'success' })]);
  }, 120_000);
});
