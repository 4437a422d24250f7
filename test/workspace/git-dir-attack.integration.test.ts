import { describe, it, expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffText, filesChanged } from '../../src/workspace/diff-stat.js';
import { createExec, type ExecHandle } from '../../src/workspace/exec.js';
import { commitWork } from '../../src/workspace/publish.js';
import { treeHash } from '../../src/workspace/tree-hash.js';
import { createWorktree, type Worktree } from '../../src/workspace/worktree.js';
import { bareEnv, sh, tempDir } from './git-fixtures.js';
import { BOT as identity, useCheckouts } from '../kit/walls-checkout.js';
import { afterThisTest, itInSandbox } from '../kit/walls-exec.js';

const checkout = useCheckouts({ 'README.md': '# r\n' }, 'proofpr/1-a');
/** The clone the current test's worktree was made from. */
let clone: string;

async function setup(sandbox: 'required' | 'off'): Promise<{ wt: Worktree; h: ExecHandle; marker: string }> {
  const made = await checkout();
  clone = made.clone;
  const { wt } = made;
  const base = tempDir();
  const h = await createExec({ root: wt.path, runTmp: join(base, 'run'), sandbox, gitDir: wt.gitDir, killGraceMs: 200 });
  afterThisTest(() => h.dispose());
  return { wt, h, marker: join(base, 'pwned') };
}

/** What the test code of a hostile change would do: point `.git` at a git dir whose config runs a command. */
const attack = (marker: string): string =>
  [
    'mkdir -p .fake/objects .fake/refs/heads',
    'echo "ref: refs/heads/main" > .fake/HEAD',
    `printf '[core]\\n\\trepositoryformatversion = 0\\n[filter "x"]\\n\\tclean = touch ${marker}; cat\\n' > .fake/config`,
    "echo '* filter=x' > .gitattributes",
    'echo data > f.txt',
    "printf 'gitdir: .fake\\n' > .git",
  ].join('; ');

describe('git dir attack', () => {
  it('attack - rewriting .git runs a command in a naive git call (the attack this guards against is real)', async () => {
    const { wt, h, marker } = await setup('off');
    await h.exec({ command: attack(marker), cwd: wt.path, timeoutMs: 10_000 });
    expect(readFileSync(join(wt.path, '.git'), 'utf8')).toBe('gitdir: .fake\n');
    execFileSync('git', ['add', '-A'], { cwd: wt.path, env: bareEnv(), stdio: 'ignore' });
    expect(existsSync(marker)).toBe(true);
  });

  itInSandbox('sandbox - code in bwrap cannot rewrite the .git pointer, and the next treeHash runs nothing', async () => {
    const { wt, h, marker } = await setup('required');
    const before = readFileSync(join(wt.path, '.git'), 'utf8');
    const r = await h.exec({
      command: `${attack(marker)}; echo rc=$?; rm -f .git; mv .git g 2>/dev/null; echo > .git/../x`,
      cwd: wt.path,
      timeoutMs: 10_000,
    });
    expect(r.stdout).toContain('rc=1');
    expect(readFileSync(join(wt.path, '.git'), 'utf8')).toBe(before);
    expect(existsSync(join(wt.path, '.fake/config'))).toBe(true);
    await treeHash(wt.path);
    await treeHash(wt.path, { gitDir: wt.gitDir });
    const c = await commitWork({ worktree: wt.path, message: 'work', identity, gitDir: wt.gitDir });
    expect('sha' in c).toBe(true);
    expect(existsSync(marker)).toBe(false);
    expect(readFileSync(join(wt.path, '.git'), 'utf8')).toBe(before);
  });

  it('treeHash - with the recorded gitDir a rewritten .git pointer is ignored and runs nothing (no sandbox)', async () => {
    const { wt, h, marker } = await setup('off');
    await h.exec({ command: attack(marker), cwd: wt.path, timeoutMs: 10_000 });
    const hash = await treeHash(wt.path, { gitDir: wt.gitDir });
    expect(hash).toMatch(/^[0-9a-f]{40}$/);
    expect((await filesChanged(wt.path, wt.baseSha, { gitDir: wt.gitDir })).map((f) => f.path)).toEqual(
      expect.arrayContaining(['.fake/HEAD', '.gitattributes', 'f.txt']),
    );
    expect(await diffText(wt.path, wt.baseSha, 10_000, { gitDir: wt.gitDir })).toContain('+data');
    const c = await commitWork({ worktree: wt.path, message: 'work', identity, gitDir: wt.gitDir, expectedTreeHash: hash });
    expect(c).toMatchObject({ tree: hash });
    expect(existsSync(marker)).toBe(false);
  });

  it('treeHash - without gitDir a .git pointer that leads outside the repository worktrees/ is refused', async () => {
    const { wt, h, marker } = await setup('off');
    await h.exec({ command: attack(marker), cwd: wt.path, timeoutMs: 10_000 });
    await expect(treeHash(wt.path)).rejects.toThrow(/refusing to run git in .*its \.git points inside the worktree/);
    await expect(commitWork({ worktree: wt.path, message: 'x', identity })).rejects.toMatchObject({ kind: 'tampered' });
    await expect(filesChanged(wt.path, wt.baseSha)).rejects.toMatchObject({ kind: 'tampered' });
    expect(existsSync(marker)).toBe(false);
  });

  it('treeHash - a .git pointer to another worktree, or to a fake repository outside, is refused', async () => {
    const { wt } = await setup('off');
    const other = await createWorktree({
      repoDir: clone,
      baseRef: 'main',
      branch: 'proofpr/2-b',
      worktreesDir: join(wt.path, '..'),
      runId: 'o',
    });
    afterThisTest(() => other.remove());
    writeFileSync(join(wt.path, '.git'), `gitdir: ${other.gitDir}\n`);
    await expect(treeHash(wt.path)).rejects.toThrow(/belongs to another worktree/);
    const fake = join(tempDir(), 'worktrees', 'x');
    mkdirSync(fake, { recursive: true });
    writeFileSync(join(fake, 'commondir'), '../..\n');
    writeFileSync(join(fake, 'gitdir'), `${join(wt.path, '.git')}\n`);
    writeFileSync(join(wt.path, '.git'), `gitdir: ${fake}\n`);
    await expect(treeHash(wt.path)).rejects.toThrow(/common dir has no HEAD/);
    expect(await treeHash(wt.path, { gitDir: wt.gitDir })).toBe(sh(other.path, 'rev-parse', 'HEAD^{tree}'));
  });
});
