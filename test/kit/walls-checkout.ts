/**
 * Worktree checkouts of a fixture remote for the workspace tests. Kept apart from git-fixtures.ts, which
 * loads nothing of src/: a test that sets LOG_LEVEL before it imports the product (the secrets test reads
 * every log line) must not find the root logger made already by a fixture import.
 */
import { afterEach } from '@jest/globals';
import { join } from 'node:path';
import { createWorktree, type Worktree } from '../../src/workspace/worktree.js';
import { tempDir } from './temp.js';
import { makeRemote, sh, type Remote } from '../workspace/git-fixtures.js';

/** The identity the harness commits with. */
export const BOT = { name: 'proofpr[bot]', email: 'bot@example.test' };

/** A remote, a plain clone of it like the CLI's checkout, and a worktree made from the clone (not from a mirror). */
export interface Checkout {
  remote: Remote;
  clone: string;
  wt: Worktree;
}

/**
 * Checkouts for the tests of a file: each call makes a remote holding `files`, clones it and makes a
 * worktree of the clone on `branch`; the worktree and the remote are removed after the test.
 */
export function useCheckouts(files: Record<string, string>, branch: string): () => Promise<Checkout> {
  const made: Checkout[] = [];
  afterEach(async () => {
    for (const { wt, remote } of made.splice(0)) {
      await wt.remove();
      remote.cleanup();
    }
  });
  return async () => {
    const remote = makeRemote(files);
    const clone = join(remote.root, 'checkout');
    sh(remote.root, 'clone', '-q', remote.bare, clone);
    const wt = await createWorktree({ repoDir: clone, baseRef: 'main', branch, worktreesDir: tempDir(), runId: 'r' });
    made.push({ remote, clone, wt });
    return { remote, clone, wt };
  };
}
