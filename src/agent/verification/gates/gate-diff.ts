import { posix } from 'node:path';
import { isTestConfigPath } from '../integrity/test-config.js';
import { isTestFile } from '../changes/test-files.js';
import { worktreeDiff, type FileDiff } from '../changes/worktree-diff.js';

/** Paths the diff gates look at: test files, test runner config, and .gitattributes (anywhere). */
export function isGateDiffPath(path: string): boolean {
  return isTestFile(path) || isTestConfigPath(path) || posix.basename(path) === '.gitattributes';
}

/**
 * One diff from `baseSha` to the worktree now for assertions-kept and test-config-kept together: every
 * file, since what the tests depend on (helpers, fixtures, snapshots, mocks, setup and launch files) is
 * decided by the classification, not by a path filter here.
 */
export function gateDiff(root: string, baseSha: string, gitDir?: string): Promise<FileDiff[]> {
  return worktreeDiff(root, baseSha, () => true, gitDir);
}
