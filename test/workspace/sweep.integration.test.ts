import { describe, it, expect, afterEach } from '@jest/globals';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureMirror } from '../../src/workspace/mirror.js';
import { sweepWorktrees } from '../../src/workspace/worktree.js';
import { createWorktree } from '../../src/workspace/worktree.js';
import { makeRemote, sh, tempDir, type Remote } from './git-fixtures.js';

const project = resolve('.');
let remote: Remote;
afterEach(() => remote?.cleanup());

/** Bundles worktree.ts for a plain node child (CommonJS, packages resolved from the project). */
function bundle(dir: string): string {
  const out = join(dir, 'worktree.cjs');
  execFileSync(
    join(project, 'node_modules/.bin/esbuild'),
    [
      'src/workspace/worktree.ts',
      '--bundle',
      '--platform=node',
      '--format=cjs',
      '--packages=external',
      `--outfile=${out}`,
      '--log-level=warning',
    ],
    {
      cwd: project,
    },
  );
  return out;
}

/** Starts a child that creates a worktree, leaves an uncommitted file in it, says READY and waits. */
async function crashingRun(
  repoDir: string,
  worktreesDir: string,
  runId: string,
  branch: string,
): Promise<{ pid: number; path: string; kill: () => Promise<void> }> {
  const tmp = tempDir();
  const mod = bundle(tmp);
  const script = join(tmp, 'child.cjs');
  writeFileSync(
    script,
    `const { createWorktree } = require(${JSON.stringify(mod)});
     const fs = require('node:fs');
     createWorktree(${JSON.stringify({ repoDir, baseRef: 'main', branch, worktreesDir, runId })}).then((wt) => {
       fs.writeFileSync(wt.path + '/unsaved.txt', 'work in progress\\n');
       process.stdout.write('READY ' + wt.path + '\\n');
       setInterval(() => {}, 1000);
     });`,
  );
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, NODE_PATH: join(project, 'node_modules'), LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const path = await new Promise<string>((res, rej) => {
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /READY (.+)\n/.exec(buf);
      if (m?.[1]) res(m[1]);
    });
    child.on('exit', (code) => rej(new Error(`child exited early (${code})`)));
  });
  const kill = () =>
    new Promise<void>((r) => {
      child.once('exit', () => r());
      child.kill('SIGKILL');
    });
  return { pid: child.pid ?? 0, path, kill };
}

describe('sweepWorktrees', () => {
  it('sweepWorktrees - after a run is killed mid-way, saves its changes as a WIP commit and removes its worktree', async () => {
    remote = makeRemote();
    const home = tempDir();
    const { dir } = await ensureMirror({ home, url: remote.url });
    const worktreesDir = join(home, 'worktrees');
    const live = await createWorktree({ repoDir: dir, baseRef: 'main', branch: 'proofpr/2-live', worktreesDir, runId: 'live' });
    const crashed = await crashingRun(dir, worktreesDir, 'crashed', 'proofpr/1-crash');
    expect(sh(dir, 'worktree', 'list').split('\n')).toHaveLength(3);
    await crashed.kill();

    const result = await sweepWorktrees(worktreesDir, [dir]);
    expect(result.removed).toEqual([crashed.path]);
    expect(result.salvaged).toEqual(['proofpr/1-crash']);
    expect(existsSync(crashed.path)).toBe(false);
    expect(sh(dir, 'worktree', 'list', '--porcelain')).not.toContain(crashed.path);
    expect(sh(dir, 'worktree', 'list').split('\n')).toHaveLength(2);
    expect(sh(dir, 'show', 'proofpr/1-crash:unsaved.txt')).toBe('work in progress');
    expect(sh(dir, 'log', '-1', '--format=%s', 'proofpr/1-crash')).toMatch(/^WIP \(unverified\): /);
    expect(existsSync(live.path)).toBe(true);
    expect(readdirSync(worktreesDir).sort()).toEqual(['live', 'live.owner.json']);

    // The branch is free again: a new run can continue from the salvaged work.
    const next = await createWorktree({
      repoDir: dir,
      baseRef: 'main',
      branch: 'proofpr/1-crash',
      worktreesDir,
      runId: 'next',
      continueBranch: true,
    });
    expect(existsSync(join(next.path, 'unsaved.txt'))).toBe(true);
    await next.remove();
    await live.remove();
  });
});
