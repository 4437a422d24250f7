/**
 * Exec handles and sandboxes as the wall tests open them (test/workspace, test/security): each handle is
 * disposed after its test (temp folders go with tempDir when the file ends), and a sandbox test on a
 * machine without bwrap fails on CI and proves nothing elsewhere.
 */
import { afterEach, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createExec, type ExecHandle } from '../../src/workspace/exec.js';
import { detectBwrap } from '../../src/workspace/sandbox.js';
import { createWorktree, type Worktree } from '../../src/workspace/worktree.js';
import { makeRemote, sh } from '../workspace/git-fixtures.js';
import { tempDir } from './temp.js';

type Dispose = () => Promise<void> | void;
const disposers: Dispose[] = [];

afterEach(async () => {
  for (const dispose of disposers.splice(0).reverse()) await dispose();
});

/** Runs `dispose` after the current test (the last registered first). */
export function afterThisTest(...dispose: Dispose[]): void {
  disposers.push(...dispose);
}

/** True when bwrap works here; otherwise fails the test on CI (CI=true) and lets the caller skip elsewhere. */
export async function needBwrap(): Promise<boolean> {
  const ok = (await detectBwrap()) !== null;
  if (!ok) expect(process.env.CI === 'true' ? 'bwrap missing on CI: apt-get install bubblewrap' : 'no bwrap').toBe('no bwrap');
  return ok;
}

/** A test that needs bwrap: without it the test fails on CI and passes, proving nothing, elsewhere (see needBwrap). */
export function itInSandbox(title: string, test: () => Promise<void>, timeout?: number): void {
  it(
    title,
    async () => {
      if (await needBwrap()) await test();
    },
    timeout,
  );
}

export type ExecOptions = Parameters<typeof createExec>[0];

/** An exec handle over a new empty worktree folder (`repo`, with `run` beside it), disposed after the test. */
export async function openExec(
  prefix: string,
  opts: Partial<ExecOptions> = {},
): Promise<{ h: ExecHandle; root: string; run: string; base: string }> {
  const base = tempDir(prefix);
  const root = join(base, 'repo');
  const run = join(base, 'run');
  mkdirSync(root);
  const h = await createExec({ root, runTmp: run, sandbox: 'off', killGraceMs: 200, ...opts });
  afterThisTest(() => h.dispose());
  return { h, root, run, base };
}

/** The folders of a sandboxedCheckout: the home holding the checkout, and the state folder of the harness. */
export interface CheckoutPaths {
  base: string;
  home: string;
  src: string;
  state: string;
}

/**
 * A checkout in a home folder (`home/src`, cloned from a remote holding `files`) that `prepare` then
 * changes, a worktree of it in the state folder with node_modules linked, and a sandboxed exec there that
 * hides `hide(paths)`. The exec, the worktree and the remote go after the test.
 */
export async function sandboxedCheckout(opts: {
  files: Record<string, string>;
  branch: string;
  prepare: (paths: CheckoutPaths) => void;
  hide: (paths: CheckoutPaths) => string[];
}): Promise<{ wt: Worktree; h: ExecHandle; paths: CheckoutPaths }> {
  const base = tempDir('proofpr-sbx-');
  const home = join(base, 'home');
  const paths = { base, home, src: join(home, 'src'), state: join(base, 'state') };
  const remote = makeRemote(opts.files);
  afterThisTest(() => remote.cleanup());
  sh(base, 'clone', '-q', remote.bare, paths.src);
  opts.prepare(paths);
  const wt = await createWorktree({
    repoDir: paths.src,
    baseRef: 'main',
    branch: opts.branch,
    worktreesDir: join(paths.state, 'worktrees'),
    runId: 'r',
    linkDirs: ['node_modules'],
  });
  afterThisTest(() => wt.remove());
  const h = await createExec({
    root: wt.path,
    runTmp: join(paths.state, 'runs', 'r'),
    sandbox: 'required',
    gitDir: wt.gitDir,
    hidePaths: opts.hide(paths),
    killGraceMs: 200,
  });
  afterThisTest(() => h.dispose());
  return { wt, h, paths };
}
