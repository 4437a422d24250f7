/*
 * Protected paths (docs/security.md, rows "harness tampering", "persistence"): one list of control files,
 * used by the permission policy (Write/Edit and Bash write targets), the sandbox (control files bound
 * read-only) and the commit gate (no control-file change). Secrets are judged by content, not by path
 * (src/secrets/files.ts, src/workspace/secret-file.ts); the conventional secret names remain a hint for
 * ignore rules only.
 */
import ignore, { type Ignore } from 'ignore';
import { hasToken, isSecretPath, isTokenFileName } from '../secrets/files.js';

/** Control files: they change what the harness, CI, hooks, agents or package managers run. */
const CONTROL_PATTERNS = [
  '.github/**',
  '.husky/**',
  '.githooks/**',
  '.claude/**',
  '.mcp.json',
  '.vscode/tasks.json',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  '.gitmodules',
  '.gitattributes',
  // Hook runners' configs: what `git commit` runs on a maintainer's machine once pre-commit or lefthook is installed.
  '.pre-commit-config.yaml',
  'lefthook.yml',
  '.lefthook.yml',
];

const control: Ignore = ignore().add(CONTROL_PATTERNS.map((p) => (p.includes('/') ? `/${p}` : p)));

/**
 * A conventional secret-file NAME (`.env`, `id_rsa`, `config/master.key` …; src/secrets/files.ts): a hint for
 * ignore rules (a `.gitignore` line that stops ignoring `.env`), never a wall: files are judged by content.
 */
export function isSecretName(rel: string): boolean {
  return isSecretPath(rel);
}

export { hasToken, isTokenFileName };

/** A control file (CI config, hooks, agent and package-manager configs, `.github/proofpr.yml` itself). */
export function isControlPath(rel: string): boolean {
  if (rel === '' || rel === '.') return false;
  return control.ignores(rel);
}

/** The patterns named in docs/security.md and the README (one source for both). */
export const CONTROL_FILE_PATTERNS: readonly string[] = CONTROL_PATTERNS;

/**
 * The maintainer's opt-in (`permissions.writable`, gitignore-style globs; `writable_workflows: true`
 * adds `.github/workflows/**`): protected paths it names may be written.
 */
export function writableMatcher(writable: readonly string[] = [], writableWorkflows = false): (rel: string) => boolean {
  const globs = [...writable, ...(writableWorkflows ? ['.github/workflows/**'] : [])];
  if (globs.length === 0) return () => false;
  const ig = ignore().add(globs.map((g) => g.replace(/^\.\//, '')));
  return (rel) => rel !== '' && ig.ignores(rel);
}

/** Why a worktree path may not be written, or null. `isWritable` is writableMatcher's answer. */
export function protectedWriteReason(rel: string, isWritable: (rel: string) => boolean): string | null {
  if (isWritable(rel)) return null;
  if (isControlPath(rel)) {
    return `${rel} is a control file (CI config, hooks, agent or package-manager config, .gitattributes, .gitmodules, .github/proofpr.yml): changing it changes what runs after the agent; it is not writable unless permissions.writable in .github/proofpr.yml names it${rel.startsWith('.github/workflows/') ? ' (or permissions.writable_workflows: true)' : ''}`;
  }
  return null;
}
