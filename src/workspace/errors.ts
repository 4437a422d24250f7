/**
 * Errors the workspace raises with a message a person can act on. `kind` lets callers (runTask, the
 * GitHub App) map them to a verdict reason or a comment without parsing text. Messages never hold a
 * token: every git error text is scrubbed before it gets here (git.ts).
 */
export type WorkspaceErrorKind =
  | 'git'
  | 'disk-full'
  | 'auth'
  | 'remote-moved'
  | 'base-missing'
  | 'refused-ref'
  | 'tree-mismatch'
  | 'branch-busy'
  | 'lock-timeout'
  | 'bad-input'
  /** The worktree's `.git` pointer does not lead to its own git dir (rewritten by code run in the worktree?). */
  | 'tampered'
  /** The commit would carry a secret-looking file or a control file the config does not open (protected-paths). */
  | 'protected';

export class WorkspaceError extends Error {
  readonly kind: WorkspaceErrorKind;
  constructor(kind: WorkspaceErrorKind, message: string) {
    super(message);
    this.name = 'WorkspaceError';
    this.kind = kind;
  }
}

/** The tree about to be committed is not the tree the gates tested: nothing was committed. */
export class TreeMismatchError extends WorkspaceError {
  readonly expected: string;
  readonly actual: string;
  constructor(expected: string, actual: string) {
    super(
      'tree-mismatch',
      `the tree being committed differs from the tested tree: tested ${expected}, worktree now ${actual}; ` +
        'a file changed after the last verified test run, so nothing was committed (re-run the tests on the final tree)',
    );
    this.name = 'TreeMismatchError';
    this.expected = expected;
    this.actual = actual;
  }
}
