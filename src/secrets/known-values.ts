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

/** The values to remove from every artifact: every secret-named variable of `env`, plus `extra`. */
export function secretValues(env: NodeJS.ProcessEnv = process.env, extra: readonly string[] = []): string[] {
  const out = new Set<string>();
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
