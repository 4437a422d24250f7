import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseRepoConfig } from '../../src/config/repo-config.js';
import { prepareWorkspace, type Workspace } from '../../src/run/prepare-workspace.js';
import { saveWip } from '../../src/run/save-wip.js';
import { outcomeOf } from '../../src/run/run-outcome.js';
import type { RunTaskInput } from '../../src/run/run-task-types.js';
import { buildEvidence } from '../../src/agent/evidence/evidence.js';
import { renderSummaryMd } from '../../src/agent/evidence/summary-md.js';
import { openWorld, worldMasked } from '../../src/workspace/world.js';
import { tempDir } from '../kit/temp.js';
import { makeRepo } from '../tools/helpers/context.js';
import { writeFiles } from '../workspace/git-fixtures.js';

/* Issue 23, "no work lost": the files a WIP commit could not take are a list in evidence.json and in summary.md. */

let ws: Workspace;
let input: RunTaskInput;

const write = (root: string, rel: string, text: string): void => writeFiles(root, { [rel]: text });

beforeAll(async () => {
  const base = tempDir('proofpr-leftout-');
  const repo = makeRepo({
    git: true,
    files: { 'src/a.js': 'module.exports = 1;\n', 'config/master.key': '3f9a1c7e5b2d8f4a6c0e9b1d7a3f5c2e\n' },
    commit: 'base',
  });
  input = {
    repoDir: repo.root,
    branch: 'proofpr/1-x',
    task: { kind: 'prompt', title: 't', body: 'b' },
    config: parseRepoConfig(''),
    model: {} as RunTaskInput['model'],
    modelId: 'm',
    mode: 'fix',
    runId: 'r1',
    runDir: join(base, 'runs', 'r1'),
    worktreesDir: join(base, 'worktrees'),
  };
  ws = await prepareWorkspace(input);
});
afterAll(() => ws.cleanup(false));

describe('leftOut and masked in the evidence', () => {
  it('left-out - a WIP commit with an uncommittable and a protected file keeps the rest; both are listed in evidence.json and summary.md', async () => {
    write(ws.wt.path, 'src/b.js', 'module.exports = 2;\n');
    write(ws.wt.path, '.GIT/config', '[core]\n');
    write(ws.wt.path, '.husky/pre-commit', '#!/bin/sh\n');
    const out = await saveWip(input, ws, outcomeOf('unverified', 'tests failed'));
    expect(out.headSha).toBeDefined();
    expect(out.leftOut?.map((l) => l.path).sort()).toEqual(['.GIT/config', '.husky/pre-commit']);
    const files = execFileSync('git', ['ls-tree', '-r', '--name-only', out.headSha ?? ''], { cwd: ws.wt.path, encoding: 'utf8' });
    expect(files.split('\n')).toContain('src/b.js');
    openWorld(ws.wt.path, {});
    const ev = buildEvidence([], {
      repo: { path: input.repoDir, baseSha: ws.wt.baseSha, branch: input.branch },
      filesChanged: [],
      verdict: 'unverified',
      reason: out.reason,
      ...(out.leftOut ? { leftOut: out.leftOut } : {}),
      masked: worldMasked(ws.wt.path),
    });
    expect(ev.leftOut?.map((l) => l.path).sort()).toEqual(['.GIT/config', '.husky/pre-commit']);
    expect(ev.masked).toEqual(['config/master.key']);
    const md = renderSummaryMd(ev);
    expect(md).toContain('### Left out of the WIP commit (2)');
    expect(md).toContain('.GIT/config');
    expect(md).toContain('protected path');
    expect(md).toContain('config/master.key');
  });
});
