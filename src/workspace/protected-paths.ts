/*
 * Protected paths (docs/security.md, rows "secret reads", "harness tampering", "persistence"): one list,
 * used by the permission policy (Write/Edit and Bash write targets), the sandbox (secrets masked,
 * control files bound read-only) and the commit gate (no new secret, no control-file change).
 */
import ignore, { type Ignore } from 'ignore';

/** Secret files by name: always masked in the sandbox, never readable by a tool, never newly committed. */
const SECRET_NAME = [
  /^\.env(\..+)?$/i, // .env, .env.local, .env.production …
  /^\.envrc$/,
  /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$/,
  /\.(p12|pfx|jks|keystore|ppk)$/i,
  /^\.git-credentials$/,
  /^\.netrc$/,
  /^_netrc$/,
  /^secrets?\.(ya?ml|json|toml)$/i,
];

/** Templates that name variables without values stay readable (tests and docs read them). */
const SECRET_TEMPLATE = /^\.env\.(example|sample|template|dist|defaults)$/i;

/** Files that hold a secret only when they carry one (a registry token, a password). */
const TOKEN_FILE = [
  /^\.npmrc$/,
  /^\.pypirc$/,
  /^\.yarnrc(\.yml)?$/,
  /^credentials(\.(json|ya?ml|toml|ini|txt|cfg|conf|csv))?$/i,
  /^\.pgpass$/,
  /\.(pem|key|asc)$/i,
];
const TOKEN_CONTENT =
  /(_authToken|_auth|_password|npmAuthToken|npmAuthIdent|password|passwd|secret|token|aws_access_key_id|aws_secret_access_key|private_key|"auth")\s*["']?\s*[=:]/i;

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
];

const control: Ignore = ignore().add(CONTROL_PATTERNS.map((p) => (p.includes('/') ? `/${p}` : p)));

const base = (rel: string): string => rel.slice(rel.lastIndexOf('/') + 1);

/** A secret by its name alone (`.env`, `id_rsa`, `*.pem` …); `.env.example` and friends are not. */
export function isSecretName(rel: string): boolean {
  const b = base(rel);
  return !SECRET_TEMPLATE.test(b) && SECRET_NAME.some((re) => re.test(b));
}

/** May this file hold a secret in its content (`.npmrc`, `.pypirc`, `credentials*`, `*.pem`, `*.key` …)? Then read it to know. */
export function isTokenFileName(rel: string): boolean {
  const b = base(rel);
  return TOKEN_FILE.some((re) => re.test(b));
}

/** Does a token-file's content carry a token or password? */
export function hasToken(content: string): boolean {
  return (
    TOKEN_CONTENT.test(content) ||
    /-----BEGIN [A-Z ]*PRIVATE KEY( BLOCK)?-----/.test(content) ||
    /^\s*machine\s+\S+.*\bpassword\b/m.test(content)
  );
}

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
  if (isSecretName(rel))
    return `${rel} looks like a secret file (keys, tokens, .env); it is not writable (a maintainer may list it in permissions.writable in .github/proofpr.yml)`;
  if (isControlPath(rel)) {
    return `${rel} is a control file (CI config, hooks, agent or package-manager config, .gitattributes, .gitmodules, .github/proofpr.yml): changing it changes what runs after the agent; it is not writable unless permissions.writable in .github/proofpr.yml names it${rel.startsWith('.github/workflows/') ? ' (or permissions.writable_workflows: true)' : ''}`;
  }
  return null;
}
