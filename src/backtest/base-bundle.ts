/**
 * A commit's tree as a single-commit history in a git bundle: the base a backtest run starts from. The
 * agent sees the parent's files and nothing of the history after it (no fix commit to find), under a
 * fixed identity and the parent's own date, with the upstream ids in the message.
 */
import { existsSync } from 'node:fs';
import { git } from './git.js';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'proofpr-backtest',
  GIT_AUTHOR_EMAIL: 'backtest@example.invalid',
  GIT_COMMITTER_NAME: 'proofpr-backtest',
  GIT_COMMITTER_EMAIL: 'backtest@example.invalid',
};

/**
 * Writes `bundle` (branch `main`) holding one commit with the tree of `rev` in the bare repository `bare`,
 * and returns that commit's id. `bare` is the tool's own repository (never the user's): the commit object is written there.
 */
export function baseBundle(bare: string, rev: string, message: string, bundle: string): string {
  const date = git(bare, ['log', '-1', '--format=%cI', rev]).trim();
  const env = { ...IDENTITY, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  const commit = git(bare, ['commit-tree', `${rev}^{tree}`], { input: message, env }).trim();
  if (existsSync(bundle)) return commit;
  // `main` exists only while the bundle is written; clone it with `--branch main`.
  git(bare, ['update-ref', 'refs/heads/main', commit]);
  try {
    git(bare, ['bundle', 'create', '-q', bundle, 'refs/heads/main']);
  } finally {
    git(bare, ['update-ref', '-d', 'refs/heads/main']);
  }
  return commit;
}
