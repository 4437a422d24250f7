import { GitError } from './git.js';
import { WorkspaceError } from './errors.js';

const AUTH =
  /authentication failed|could not read (username|password)|returned error: 40[13]|http basic: access denied|permission to \S+ denied|invalid credentials|bad credentials|\b40[13]\b/i;
const WORKFLOWS = /refusing to allow .* to create or update workflow|without `?workflows`? permission/i;
const NOT_FOUND =
  /repository not found|returned error: 404|does not appear to be a git repository|not a git repository|no such file or directory/i;

/**
 * Turns a git error from talking to a remote into a message that says what to fix. `need` is the token
 * permission that operation requires ('contents: read' for fetch, 'contents: write' for push).
 */
export function remoteError(e: unknown, what: string, need: 'contents: read' | 'contents: write'): unknown {
  if (!(e instanceof GitError)) return e;
  if (WORKFLOWS.test(e.stderr)) {
    return new WorkspaceError(
      'auth',
      `${what} was refused: the change touches .github/workflows and the token lacks the 'workflows: write' permission; ` +
        "grant the App 'workflows: write' or leave workflow files out of the change",
    );
  }
  if (AUTH.test(e.stderr)) {
    return new WorkspaceError(
      'auth',
      `${what} failed: authentication was refused (401/403); the token needs the '${need}' permission on this repository ` +
        '(check the App installation includes the repository and its permissions were accepted)',
    );
  }
  if (NOT_FOUND.test(e.stderr)) {
    return new WorkspaceError(
      'auth',
      `${what} failed: the repository was not found or the token cannot see it; install the App on the repository ` +
        `(it needs '${need}'), and check the URL`,
    );
  }
  return e;
}
