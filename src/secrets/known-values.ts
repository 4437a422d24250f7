/**
 * Known secret values: the values of the process's secret-named environment variables (and any the caller
 * adds, e.g. a git token), in every form they could leak in (raw, URL-encoded, base64, git's basic-auth pair).
 */

/** Values shorter than this are not replaced by value (they would match ordinary text). */
export const MIN_SECRET_LENGTH = 8;

const SECRET_NAME = /token|key|secret|password|passwd|credential|auth|private/i;
/** Secret-sounding names whose values are locations, not secrets (SSH_AUTH_SOCK, PRIVATE_KEY_PATH). */
const NOT_A_VALUE = /(?:_PATH|_FILE|_DIR|_SOCK|_HOME|_URL|_HOST|_ID)$/i;

/** Whether an environment variable's name says its value is a secret. */
export function isSecretEnvName(name: string): boolean {
  return SECRET_NAME.test(name) && !NOT_A_VALUE.test(name);
}

/**
 * Secret strings of the files masked in the runs of this process (the matched credentials, not whole
 * files), by run key: every artifact of every run is redacted of them, so a copy of a masked file's
 * secret under another name is caught too. A run forgets its own at clean-up.
 */
const learned = new Map<string, readonly string[]>();

/** Adds the secret strings found in a run's masked files (keyed by the run's worktree). */
export function learnMaskedSecrets(key: string, values: readonly string[]): void {
  const keep = [...new Set(values.filter((v) => v.length >= MIN_SECRET_LENGTH))];
  if (keep.length) learned.set(key, keep);
  else learned.delete(key);
}

export function forgetMaskedSecrets(key: string): void {
  learned.delete(key);
}

/** Every masked file's secret string learned in this process (all runs: redacting more is never a leak). */
export function maskedSecrets(): string[] {
  return [...new Set([...learned.values()].flat())];
}

/** The values to remove from every artifact: every secret-named variable of `env`, the masked files' secrets, plus `extra`. */
export function secretValues(env: NodeJS.ProcessEnv = process.env, extra: readonly string[] = []): string[] {
  const out = new Set<string>(maskedSecrets());
  for (const [k, v] of Object.entries(env)) {
    if (v && v.length >= MIN_SECRET_LENGTH && isSecretEnvName(k) && !/^(?:true|false|\d+)$/i.test(v)) out.add(v);
  }
  for (const s of extra) if (s && s.length >= MIN_SECRET_LENGTH) out.add(s);
  return [...out];
}

/** Every form of `value` that may appear in output: raw, URL-encoded, base64, base64 of git's basic-auth pair. */
export function leakForms(value: string): string[] {
  const forms = [
    value,
    encodeURIComponent(value),
    Buffer.from(value).toString('base64'),
    Buffer.from(`x-access-token:${value}`).toString('base64'),
  ];
  return [...new Set(forms)];
}
