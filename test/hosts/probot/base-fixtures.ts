/**
 * The world of the base-update tests (issue 28): a bare remote with the demo project, proofpr's PR #13 on
 * BRANCH whose change conflicts with a change on main, the real run with a scripted model that resolves the
 * conflict, the real mirror, merge and push (pushes recorded), and what a fast-forward push must look like.
 */
import { afterEach, beforeEach, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppHarness } from './harness.js';
import { makeRemote, sh, type Remote } from '../../workspace/git-fixtures.js';
import { createScriptedModel, text, toolUse, type ScriptStep } from '../../../src/model/scripted.js';
import type { WorkspacePort } from '../../../src/usecases/ports.js';
import type { PushBranchOptions } from '../../../src/workspace/push.js';
import { runTask } from '../../../src/run/run-task.js';
import { ensureMirror } from '../../../src/workspace/mirror.js';
import { pushBranch } from '../../../src/workspace/push.js';
import { changedPaths } from '../../../src/workspace/changed-paths.js';
import { mergeIntoBranch } from '../../../src/workspace/merge-into-branch.js';

export const BRANCH = 'proofpr/12-parser-drops-the-last-line';
const DEMO = join(process.cwd(), 'examples/demo/repo');
const demo = (p: string): string => readFileSync(join(DEMO, p), 'utf8');
export const CONFIG = `${demo('.github/proofpr.yml')}ci:\n  wait_min: 0\n`;
export const AUTO = `${demo('.github/proofpr.yml')}ci:\n  wait_min: 0\n  auto_update: true\n`;
const SORT = '  const sorted = [...values].sort();\n';
const STATS = demo('src/stats.js');
export const ON_BRANCH = STATS.replace(SORT, '  const sorted = [...values].sort((a, b) => a - b);\n');
export const ON_MAIN = STATS.replace(SORT, '  const sorted = values.slice().sort(); // a copy: the caller’s list keeps its order\n');
export const RESOLVED = STATS.replace(
  SORT,
  '  const sorted = values.slice().sort((a, b) => a - b); // a copy: the caller’s list keeps its order\n',
);

type Pushes = Array<Omit<PushBranchOptions, 'logger'>>;

/** A `push` webhook: `branch` of acme/widgets moved to `sha`. */
export function pushed(branch: string, sha: string) {
  return {
    ref: `refs/heads/${branch}`,
    before: '0'.repeat(39) + '1',
    after: sha,
    forced: false,
    deleted: false,
    repository: { name: 'widgets', full_name: 'acme/widgets', owner: { login: 'acme' }, default_branch: 'main' },
    sender: { login: 'maintainer', id: 1001, type: 'User' },
    installation: { id: 42 },
    commits: [{ id: sha, added: [], modified: ['src/stats.js'], removed: [] }],
    head_commit: { id: sha, added: [], modified: ['src/stats.js'], removed: [] },
  };
}

/** A fresh remote per test (removed after it), and the App started on it. */
export function useConflictWorld(app: AppHarness) {
  let remote: Remote | undefined;
  beforeEach(() => {
    remote = makeRemote({
      'README.md': demo('README.md'),
      'package.json': demo('package.json'),
      'src/stats.js': STATS,
      'test/stats.test.js': demo('test/stats.test.js'),
    });
  });
  afterEach(() => remote?.cleanup());
  const the = (): Remote => {
    if (!remote) throw new Error('no remote outside a test');
    return remote;
  };

  /** The real mirror and push, against the bare remote whatever URL GitHub named; pushes recorded. */
  function realWorkspace(): WorkspacePort & { pushes: Array<Omit<PushBranchOptions, 'logger'>> } {
    const pushes: Array<Omit<PushBranchOptions, 'logger'>> = [];
    return {
      pushes,
      ensureMirror: (o) => ensureMirror({ ...o, url: the().url }),
      pushBranch: async (o) => {
        pushes.push(o);
        return pushBranch({ ...o, remoteUrl: the().url });
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

  /** The pushed history: one merge of the old tip and the base, then the verified resolution on top; nothing forced. */
  function expectFastForward(ws: { pushes: Pushes }, oldTip: string, baseTip: string): string {
    expect(ws.pushes).toHaveLength(1);
    expect(ws.pushes[0]).toMatchObject({ branch: BRANCH, ownBranch: false });
    expect(ws.pushes[0]?.expectedRemoteSha).toBeUndefined();
    const newTip = the().sha(`refs/heads/${BRANCH}`);
    expect(newTip).toBe(ws.pushes[0]?.sha);
    expect(sh(the().bare, 'merge-base', '--is-ancestor', oldTip, newTip)).toBe('');
    expect(sh(the().bare, 'merge-base', '--is-ancestor', baseTip, newTip)).toBe('');
    expect(sh(the().bare, 'show', `${newTip}:src/stats.js`)).toBe(RESOLVED.trimEnd());
    // The merge commit keeps both parents; the resolution is the verified commit on top of it.
    const merge = sh(the().bare, 'rev-parse', `${newTip}^`);
    expect(sh(the().bare, 'rev-parse', `${merge}^1`, `${merge}^2`).split('\n')).toEqual([oldTip, baseTip]);
    return newTip;
  }

  /** proofpr's PR #13 on BRANCH (opened by its bot, no ledger record), the real run with the resolving model. */
  async function start(config: string, pull: { author?: string } = {}) {
    const model = resolvingModel();
    const ws = realWorkspace();
    await app.start({
      github: {
        permissions: { maintainer: { permission: 'write', role_name: 'write' } },
        config,
        bareDir: the().bare,
        pulls: [{ number: 13, head: BRANCH, base: 'main', state: 'open', author: pull.author ?? 'proofpr[bot]' }],
      },
      runTask,
      workspace: ws,
      modelFactory: () => model,
    });
    return { model, ws };
  }

  return { remote: the, start, expectFastForward };
}
