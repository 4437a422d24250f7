export interface ScrubOptions {
  /** Per-run HOME (a temp dir, never the real home). */
  home: string;
  tmpdir: string;
  /** Extra names from the repo config (`env:`); secret-looking names are dropped even when listed. */
  extraNames?: string[];
  parent?: NodeJS.ProcessEnv;
}

const BASE_NAMES = ['PATH', 'LANG', 'LC_ALL', 'TERM', 'TZ'];
const SECRET = /token|key|secret|passw|credential|auth|cookie|session|private/i;
const RESERVED = /^(INPUT_|ACTIONS_|ANTHROPIC_|GITHUB_TOKEN$|RUNNER_|AWS_|GOOGLE_|AZURE_|NPM_TOKEN$|NODE_AUTH_TOKEN$)/i;

/** True when a variable name may never reach a child process, whatever the config lists. */
export function isSecretName(name: string): boolean {
  return SECRET.test(name) || RESERVED.test(name);
}

/**
 * The environment every child process gets: an explicit allowlist (PATH, LANG, LC_ALL, TERM, TZ from the
 * parent; HOME and TMPDIR pointing at per-run dirs; CI=true) plus configured names that do not look like
 * secrets. Nothing else from the parent is inherited.
 */
export function scrubbedEnv(opts: ScrubOptions): Record<string, string> {
  const parent = opts.parent ?? process.env;
  const env: Record<string, string> = {};
  for (const name of [...BASE_NAMES, ...(opts.extraNames ?? [])]) {
    if (isSecretName(name) || name === 'HOME' || name === 'TMPDIR' || name === 'CI') continue;
    const v = parent[name];
    if (typeof v === 'string') env[name] = v;
  }
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  env.HOME = opts.home;
  env.TMPDIR = opts.tmpdir;
  env.CI = 'true';
  return env;
}
